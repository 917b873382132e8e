"""The Harbor installed agent: uploads the packed CLI, installs it, runs ``xzatoma run``.

Needs Harbor (``pip install harbor``, Python 3.12 or later). The command lines come from
:mod:`xzatoma_harbor.command`, which is tested without Harbor.
"""

from __future__ import annotations

import os
from pathlib import Path

from harbor.agents.installed.base import BaseInstalledAgent, ExecInput
from harbor.models.agent.context import AgentContext

from .command import (
    MODEL_DIR_IN_CONTAINER,
    PACKAGE_IN_CONTAINER,
    install_variables,
    run_command,
    run_environment,
    settings_from,
)
from .run_log import summary_of


class XzatomaAgent(BaseInstalledAgent):
    """XZatoma in a task container.

    ``--agent-kwarg package=PATH`` names the packed CLI on the host (``pnpm pack`` in
    apps/cli; default ``$XZATOMA_PACKAGE``); ``model_file=PATH`` the GGUF file of a
    ``local/...`` model. ``mode``, ``timeout_seconds``, ``max_turns``, ``workspace`` and
    ``sandbox`` set the run (see ../README.md).
    """

    def __init__(self, logs_dir: Path, model_name: str | None = None, **kwargs):
        super().__init__(logs_dir, model_name, **kwargs)
        self._settings = settings_from(model_name, kwargs)
        package = kwargs.get("package") or os.environ.get("XZATOMA_PACKAGE")
        if not package or not Path(str(package)).is_file():
            raise ValueError(
                "--agent-kwarg package must name the packed @xzatoma/cli "
                f"(pnpm pack in apps/cli), not {package!r}"
            )
        self._package = Path(str(package))
        model_file = kwargs.get("model_file")
        self._model_file = Path(str(model_file)) if model_file else None
        if self._settings.provider == "local" and (
            self._model_file is None or not self._model_file.is_file()
        ):
            raise ValueError(
                f"--agent-kwarg model_file must name the GGUF file of a local model, not {model_file!r}"
            )

    @staticmethod
    def name() -> str:
        return "xzatoma"

    def version(self) -> str | None:
        return None

    @property
    def _install_agent_template_path(self) -> Path:
        return Path(__file__).parent / "install-xzatoma.sh.j2"

    @property
    def _template_variables(self) -> dict[str, str]:
        return {**super()._template_variables, **install_variables(self._settings)}

    async def setup(self, environment) -> None:
        await environment.upload_file(source_path=self._package, target_path=PACKAGE_IN_CONTAINER)
        if self._model_file is not None:
            await environment.upload_file(
                source_path=self._model_file,
                target_path=f"{MODEL_DIR_IN_CONTAINER}/{self._model_file.name}",
            )
        await super().setup(environment)

    def create_run_agent_commands(self, instruction: str) -> list[ExecInput]:
        return [
            ExecInput(
                command=run_command(self._settings, instruction),
                env=run_environment(self._settings, os.environ) or None,
                timeout_sec=self._settings.timeout_seconds + 60,
            )
        ]

    def populate_context_post_run(self, context: AgentContext) -> None:
        log = self.logs_dir / "xzatoma-events.jsonl"
        if not log.is_file():
            return
        summary = summary_of(log.read_text(encoding="utf-8", errors="replace"))
        context.n_input_tokens = summary.input_tokens
        context.n_output_tokens = summary.output_tokens
        context.metadata = {"stop_reason": summary.stop_reason, "tool_calls": summary.tool_calls}
