"""Plunder's games for the tools reinforcement-learning users already have.

:mod:`.encoding` gives every game a numeric observation and a fixed action space with a
legal-action mask; :mod:`.pettingzoo` and :mod:`.gymnasium` wrap games as environments of
those projects (install the ``rl`` extra). ``docs/interop.md`` describes each encoding.
"""
