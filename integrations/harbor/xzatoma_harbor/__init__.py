"""XZatoma as a Harbor installed agent (Terminal-Bench's runner). See ../README.md."""

from .command import AgentSettings, install_variables, run_command, settings_from

__all__ = ["AgentSettings", "install_variables", "run_command", "settings_from"]


def __getattr__(name: str):
    # The Harbor class needs Harbor (Python 3.12 and later); the command line does not.
    if name == "XzatomaAgent":
        from .agent import XzatomaAgent

        return XzatomaAgent
    raise AttributeError(name)
