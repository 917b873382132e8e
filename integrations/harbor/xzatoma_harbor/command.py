"""The command lines the Harbor adapter runs in a task container, built without Harbor.

Harbor gives an installed agent a model name such as ``openai/gpt-4o`` and keyword
arguments from ``--agent-kwarg``; this module turns them into the ``xzatoma run`` command
and the environment it needs, so both can be checked without Docker or Harbor.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field

#: Providers ``xzatoma run --provider`` takes that can work unattended in a container.
PROVIDERS = ("ollama", "openai", "local")

#: Where the packed CLI is uploaded in the container, and where the run's log goes.
PACKAGE_IN_CONTAINER = "/tmp/xzatoma-cli.tgz"
MODEL_DIR_IN_CONTAINER = "/opt/xzatoma/models"
LOG_DIR = "/logs/agent"
EVENTS_LOG = f"{LOG_DIR}/xzatoma-events.jsonl"

#: Variables passed from the host to the run when set there: the provider's address and key.
PASSED_ENVIRONMENT = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OLLAMA_HOST")


@dataclass(frozen=True)
class AgentSettings:
    """What one trial runs: the provider and model, and the run's limits."""

    provider: str
    model: str
    mode: str = "write"
    timeout_seconds: int = 1800
    max_turns: int = 100
    workspace: str | None = None
    sandbox: bool = True
    extra_environment: Mapping[str, str] = field(default_factory=dict)


def _positive(name: str, value: object) -> int:
    try:
        number = int(str(value))
    except ValueError:
        raise ValueError(f"--agent-kwarg {name} must be a whole number, not {value!r}") from None
    if number < 1:
        raise ValueError(f"--agent-kwarg {name} must be at least 1, not {number}")
    return number


def _flag(name: str, value: object) -> bool:
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"--agent-kwarg {name} must be true or false, not {value!r}")


def settings_from(model_name: str | None, kwargs: Mapping[str, object]) -> AgentSettings:
    """Reads Harbor's ``--model`` (``provider/model``) and ``--agent-kwarg`` values.

    ``local/<file>.gguf`` runs a GGUF file the adapter uploads to the container (the
    ``model_file`` keyword names it on the host). Raises ``ValueError`` naming the flag or
    keyword that is wrong.
    """
    if not model_name or "/" not in model_name:
        raise ValueError(
            f"--model must be provider/model with a provider of {', '.join(PROVIDERS)} "
            f"(like ollama/qwen2.5-coder:7b), not {model_name!r}"
        )
    provider, model = model_name.split("/", 1)
    if provider not in PROVIDERS:
        raise ValueError(
            f"--model {model_name!r}: the provider must be one of {', '.join(PROVIDERS)}"
        )
    if provider == "local":
        model = f"{MODEL_DIR_IN_CONTAINER}/{model.rsplit('/', 1)[-1]}"
    mode = str(kwargs.get("mode", "write"))
    if mode not in ("write", "planning"):
        raise ValueError(f"--agent-kwarg mode must be write or planning, not {mode!r}")
    workspace = kwargs.get("workspace")
    return AgentSettings(
        provider=provider,
        model=model,
        mode=mode,
        timeout_seconds=_positive("timeout_seconds", kwargs.get("timeout_seconds", 1800)),
        max_turns=_positive("max_turns", kwargs.get("max_turns", 100)),
        workspace=None if workspace is None else str(workspace),
        sandbox=_flag("sandbox", kwargs.get("sandbox", True)),
    )


def run_command(settings: AgentSettings, instruction: str) -> str:
    """The shell command that runs the task's instruction once, unattended.

    ``xzatoma run`` asks no one: what needs a person's yes is refused. Its event stream
    (``--json``) goes to the agent's log directory, which Harbor copies out of the container.
    """
    arguments = [
        "xzatoma",
        "run",
        "--provider",
        settings.provider,
        "--model",
        settings.model,
        "--mode",
        settings.mode,
        "--max-turns",
        str(settings.max_turns),
        "--timeout",
        str(settings.timeout_seconds),
        "--json",
    ]
    if settings.workspace:
        arguments += ["--workspace", settings.workspace]
    if not settings.sandbox:
        arguments.append("--no-sandbox")
    # "--" ends the options: an instruction that starts with "-" stays the prompt.
    arguments += ["--", instruction]
    run = " ".join(shlex.quote(argument) for argument in arguments)
    return f"mkdir -p {LOG_DIR} && {run} > {EVENTS_LOG} 2> {LOG_DIR}/xzatoma-stderr.txt"


def run_environment(settings: AgentSettings, host: Mapping[str, str]) -> dict[str, str]:
    """The variables the run gets: the provider's address and key from the host, when set."""
    passed = {name: host[name] for name in PASSED_ENVIRONMENT if host.get(name)}
    return {**passed, **settings.extra_environment}


def install_variables(settings: AgentSettings) -> dict[str, str]:
    """What the install script template reads."""
    return {
        "package": PACKAGE_IN_CONTAINER,
        "node_major": "24",
        "with_local_runtime": "true" if settings.provider == "local" else "",
    }
