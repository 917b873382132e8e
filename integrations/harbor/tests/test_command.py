"""The adapter's command lines, run through a real shell: python3 -m unittest discover tests

The run command is executed by bash with the real CLI of this checkout (built with
``nx run @xzatoma/cli:build``) against an OpenAI-compatible address where nothing listens,
so the run fails fast and offline, and its event log shows what xzatoma received.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from xzatoma_harbor.command import (  # noqa: E402
    EVENTS_LOG,
    LOG_DIR,
    install_variables,
    run_command,
    run_environment,
    settings_from,
)
from xzatoma_harbor.run_log import summary_of  # noqa: E402

ROOT = HERE.parents[2]
CLI = Path(os.environ.get("XZATOMA_CLI") or ROOT / "apps" / "cli" / "bin" / "xzatoma.js")
AWKWARD = "--help me: fix \"it\"; echo $(whoami) `id` 'quoted'\nsecond line"


def xzatoma_argv(command: str) -> list[str]:
    """The words of the xzatoma invocation in the run command."""
    words = shlex.split(command)
    start = words.index("xzatoma")
    return words[start : words.index(">", start)]


class SettingsTest(unittest.TestCase):
    def test_harbor_model_names_become_provider_and_model(self) -> None:
        self.assertEqual(
            settings_from("ollama/qwen2.5-coder:7b", {}).model, "qwen2.5-coder:7b"
        )
        openai = settings_from("openai/gpt-4o-mini", {"mode": "planning", "max_turns": "7"})
        self.assertEqual((openai.provider, openai.mode, openai.max_turns), ("openai", "planning", 7))
        local = settings_from("local/models/qwen.gguf", {})
        self.assertEqual(local.model, "/opt/xzatoma/models/qwen.gguf")

    def test_wrong_values_are_refused_naming_the_flag(self) -> None:
        for model, kwargs, named in [
            (None, {}, "--model"),
            ("gpt-4o", {}, "--model"),
            ("anthropic/claude", {}, "--model"),
            ("openai/gpt-4o", {"mode": "yolo"}, "mode"),
            ("openai/gpt-4o", {"timeout_seconds": "soon"}, "timeout_seconds"),
            ("openai/gpt-4o", {"max_turns": 0}, "max_turns"),
            ("openai/gpt-4o", {"sandbox": "maybe"}, "sandbox"),
        ]:
            with self.assertRaises(ValueError) as raised:
                settings_from(model, kwargs)
            self.assertIn(named, str(raised.exception))


class RunCommandTest(unittest.TestCase):
    def test_the_instruction_reaches_xzatoma_as_one_argument_after_the_options(self) -> None:
        settings = settings_from("openai/gpt-4o", {"timeout_seconds": 600, "sandbox": "false"})
        argv = xzatoma_argv(run_command(settings, AWKWARD))
        self.assertEqual(argv[:2], ["xzatoma", "run"])
        self.assertEqual(argv[-2:], ["--", AWKWARD])
        options = argv[2:-2]
        self.assertEqual(options[options.index("--provider") + 1], "openai")
        self.assertEqual(options[options.index("--timeout") + 1], "600")
        self.assertIn("--json", options)
        self.assertIn("--no-sandbox", options)
        self.assertNotIn("--no-sandbox", xzatoma_argv(run_command(settings_from("openai/x", {}), "hi")))

    def test_only_the_providers_address_and_key_pass_from_the_host(self) -> None:
        host = {"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "", "HOME": "/root", "AWS_SECRET": "s"}
        self.assertEqual(run_environment(settings_from("openai/x", {}), host), {"OPENAI_API_KEY": "k"})

    def test_a_real_shell_runs_the_real_cli_with_the_instruction_unchanged(self) -> None:
        self.assertTrue(CLI.is_file(), f"{CLI} is missing: build it with 'nx run @xzatoma/cli:build'")
        with tempfile.TemporaryDirectory() as directory:
            base = Path(directory)
            logs, workspace, home, bin_dir = (base / name for name in ("logs", "ws", "home", "bin"))
            for folder in (workspace, home, bin_dir):
                folder.mkdir()
            launcher = bin_dir / "xzatoma"
            launcher.write_text(f"#!/bin/sh\nexec node \"{CLI}\" \"$@\"\n")
            launcher.chmod(0o755)
            settings = settings_from("openai/scripted", {"timeout_seconds": 60, "max_turns": 2})
            command = run_command(settings, AWKWARD).replace(LOG_DIR, str(logs))
            environment = {
                "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
                "HOME": str(home),
                "XDG_DATA_HOME": str(home / "data"),
                "XDG_CONFIG_HOME": str(home / "config"),
                # Nothing listens on port 9 of 127.0.0.1: the first request fails at once.
                "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
                "OPENAI_API_KEY": "test",
            }
            done = subprocess.run(
                ["bash", "-c", command], cwd=workspace, env=environment, timeout=180, check=False
            )
            self.assertEqual(done.returncode, 1, (logs / "xzatoma-stderr.txt").read_text())
            events = (logs / Path(EVENTS_LOG).name).read_text()
            lines = [json.loads(line) for line in events.splitlines()]
            self.assertEqual(lines[0]["type"], "run-started")
            self.assertEqual(lines[0]["input"], AWKWARD)
            self.assertEqual(lines[-1]["type"], "finished")
            self.assertEqual(summary_of(events).stop_reason, "error")
            self.assertEqual(list(workspace.iterdir()), [])


class InstallScriptTest(unittest.TestCase):
    def test_the_template_installs_the_uploaded_package_and_checks_nodes_sha256(self) -> None:
        import jinja2

        template = (HERE.parent / "xzatoma_harbor" / "install-xzatoma.sh.j2").read_text()
        for provider, runtime in (("openai/x", False), ("local/m.gguf", True)):
            script = jinja2.Template(template).render(install_variables(settings_from(provider, {})))
            self.assertIn('npm install --global --no-fund --no-audit "/tmp/xzatoma-cli.tgz"', script)
            self.assertEqual("node-llama-cpp" in script, runtime)
            self.assertIn("sha256sum -c", script)
            checked = subprocess.run(["bash", "-n"], input=script, text=True, check=False)
            self.assertEqual(checked.returncode, 0)


class RunLogTest(unittest.TestCase):
    def test_the_summary_comes_from_the_finished_event(self) -> None:
        events = "\n".join(
            [
                json.dumps({"type": "run-started", "input": "x", "tools": []}),
                "not json",
                json.dumps(
                    {
                        "type": "finished",
                        "stopReason": "completed",
                        "toolCalls": 2,
                        "usage": {"inputTokens": 120, "outputTokens": 30, "totalTokens": 150},
                    }
                ),
            ]
        )
        summary = summary_of(events)
        self.assertEqual(
            (summary.stop_reason, summary.tool_calls, summary.input_tokens, summary.output_tokens),
            ("completed", 2, 120, 30),
        )


if __name__ == "__main__":
    unittest.main()
