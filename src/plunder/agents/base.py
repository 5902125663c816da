"""Agent specs such as ``greedy`` or ``mcts:sims=500``: a name and its options as text."""

from __future__ import annotations

from ..core.errors import ParameterError


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name:key=value,key=value`` into the name and its options."""
    name, _, rest = spec.partition(":")
    options: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key:
            raise ParameterError(f"agent option {part!r} in {spec!r} is not KEY=VALUE")
        options[key.strip()] = value.strip()
    return name.strip(), options


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of agent specs, keeping each spec's own options together.

    ``mcts:sims=40,c=0.7,greedy`` -> ``["mcts:sims=40,c=0.7", "greedy"]``: a part with ``=`` and
    no ``:`` continues the spec before it (agent names never contain ``=``).
    """
    specs: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if specs and "=" in part and ":" not in part:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs
