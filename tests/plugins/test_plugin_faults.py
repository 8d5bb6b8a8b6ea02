"""A plug-in cannot change the library: a taken name is refused by every registry (one warning naming the plug-in,
what the name named kept), and a plug-in that raises anything but KeyboardInterrupt on load, SystemExit included,
is one warning naming it while the library goes on."""

from __future__ import annotations

import warnings

import pytest

import bpseg_pgm.plugins.loader as loader
from bpseg_pgm.formats import get_format
from bpseg_pgm.formats.json import JsonFormat
from bpseg_pgm.inference.engines import FastEngine, PottsEngine, make_engine
from bpseg_pgm.potentials.centered import CenteredPottsPotentials
from bpseg_pgm.potentials.registry import lookup
from bpseg_pgm.runs.cost_registry import cost_factory
from bpseg_pgm.runs.costs import EmbeddingsCost

from .conftest import snapshot


def _plugin_warnings(caught) -> list[str]:
    return [str(w.message) for w in caught if "bpseg plug-in" in str(w.message)]


TAKEN = {
    "potentials-name": """
        from bpseg_pgm.potentials.centered import CenteredPottsPotentials
        from bpseg_pgm.potentials.registry import POTENTIALS, register_potentials

        @register_potentials("centered", defaults=dict(POTENTIALS["centered"].defaults))
        class Mine(CenteredPottsPotentials):
            pass
    """,
    "potentials-defaults": """
        from bpseg_pgm.potentials.centered import CenteredPottsPotentials
        from bpseg_pgm.potentials.registry import register_potentials

        register_potentials("centered", defaults={"lam": 999.0, "sigma": 1.0, "em_rounds": 0, "context": 0.0})(
            CenteredPottsPotentials
        )
    """,
    "engine-name": """
        from bpseg_pgm.inference.engine import register_engine
        from bpseg_pgm.inference.engines.potts import PottsEngine

        @register_engine("potts")
        class Mine(PottsEngine):
            pass
    """,
    "engine-alias-as-name": """
        from bpseg_pgm.inference.engine import register_engine
        from bpseg_pgm.inference.engines.potts import PottsEngine

        @register_engine("fast")
        class Mine(PottsEngine):
            pass
    """,
    "engine-taken-alias": """
        from bpseg_pgm.inference.engine import register_engine
        from bpseg_pgm.inference.engines.potts import PottsEngine

        @register_engine("demo-new-engine", aliases=("fast",))
        class Mine(PottsEngine):
            pass
    """,
    "cost": """
        from bpseg_pgm.runs.cost_registry import register_cost
        from bpseg_pgm.runs.costs import EmbeddingsCost

        @register_cost
        class Mine(EmbeddingsCost):
            name = "embeddings"
    """,
    "format": """
        from bpseg_pgm.formats.registry import OutputFormat, register_format

        @register_format("json")
        class Mine(OutputFormat):
            def content(self, result, *, source=None):
                return "not json"
    """,
    "prune-format": """
        from bpseg_pgm.formats.registry import OutputFormat, register_format

        @register_format("text", kind="prune")
        class Mine(OutputFormat):
            def content(self, result, *, source=None):
                return "not the kept text"
    """,
}


@pytest.mark.parametrize("case", sorted(TAKEN))
def test_a_plugin_that_takes_a_registered_name_is_one_warning_and_the_name_keeps_its_meaning(plugins, case):
    before = snapshot()
    plugins({"taker": (TAKEN[case], None)})
    with pytest.warns(UserWarning) as caught:
        loader.load_plugins()
    messages = _plugin_warnings(caught)
    assert len(messages) == 1, messages
    message = messages[0]
    assert (
        "'taker'" in message and "ValueError" in message and ("already registered" in message or "built-in" in message)
    )
    assert snapshot() == before  # nothing replaced, nothing half-registered (the engine's new name neither)
    assert loader.loaded_plugins() == {}
    assert lookup("centered").cls is CenteredPottsPotentials and lookup("centered").defaults["lam"] == 150.0
    assert type(make_engine("potts")) is PottsEngine and type(make_engine("fast")) is FastEngine
    assert type(cost_factory("embeddings")) is EmbeddingsCost
    assert type(get_format("json")) is JsonFormat


SHARED = {
    "potentials": """
        from bpseg_pgm.potentials.centered import CenteredPottsPotentials
        from bpseg_pgm.potentials.registry import POTENTIALS, register_potentials

        @register_potentials("demo-shared", defaults=dict(POTENTIALS["centered"].defaults))
        class Mine(CenteredPottsPotentials):
            pass
    """,
    "engine": """
        from bpseg_pgm.inference.engine import register_engine
        from bpseg_pgm.inference.engines.potts import PottsEngine

        @register_engine("demo-shared")
        class Mine(PottsEngine):
            pass
    """,
    "cost": """
        from bpseg_pgm.runs.cost_registry import register_cost
        from bpseg_pgm.runs.costs import EmbeddingsCost

        @register_cost
        class Mine(EmbeddingsCost):
            name = "demo-shared"
    """,
    "format": """
        from bpseg_pgm.formats.registry import OutputFormat, register_format

        @register_format("demo-shared")
        class Mine(OutputFormat):
            def content(self, result, *, source=None):
                return "mine"
    """,
}


@pytest.mark.parametrize("kind", sorted(SHARED))
def test_a_name_another_plugin_took_is_refused(plugins, kind):
    """Two plug-ins register the same name: the first keeps it, the second is one warning naming it."""
    names = plugins({"first": (SHARED[kind], None), "second": (SHARED[kind], None)})
    with pytest.warns(UserWarning) as caught:
        loader.load_plugins()
    messages = _plugin_warnings(caught)
    assert len(messages) == 1 and "'second'" in messages[0] and "'demo-shared'" in messages[0], messages
    assert list(loader.loaded_plugins()) == ["first"]
    registered = {
        "potentials": lambda: lookup("demo-shared").cls,
        "engine": lambda: type(make_engine("demo-shared")),
        "cost": lambda: type(cost_factory("demo-shared")),
        "format": lambda: type(get_format("demo-shared")),
    }[kind]()
    assert registered.__module__ == names[0]


def test_the_same_registration_again_is_not_refused():
    """Registering a class again under its own name (a module imported twice by its two names) stays quiet."""
    from bpseg_pgm.potentials.registry import POTENTIALS, register_potentials

    defaults = dict(POTENTIALS["centered"].defaults)
    assert register_potentials("centered", defaults=defaults)(CenteredPottsPotentials) is CenteredPottsPotentials
    assert lookup("centered").cls is CenteredPottsPotentials


FAILING = {
    "exit-code": ("raise SystemExit(3)\n", None),
    "sys-exit": ("import sys\nsys.exit()\n", None),
    "exit-in-function": ("def register():\n    raise SystemExit('bye')\n", "register"),
    "base-exception": ("class Odd(BaseException):\n    pass\n\nraise Odd('odd')\n", None),
    "good": (
        """
        from bpseg_pgm.formats.registry import OutputFormat, register_format

        @register_format("demo-after")
        class After(OutputFormat):
            def content(self, result, *, source=None):
                return "after"
        """,
        None,
    ),
}


def test_a_plugin_that_exits_on_load_is_one_warning_and_the_others_load(plugins):
    plugins(FAILING)
    with pytest.warns(UserWarning) as caught:
        loader.load_plugins()  # returns: no SystemExit reaches the caller
    messages = _plugin_warnings(caught)
    assert len(messages) == 4, messages
    for name, kind in [("exit-code", "SystemExit: 3"), ("sys-exit", "SystemExit"), ("exit-in-function", "bye")]:
        assert sum(f"'{name}'" in m and kind in m for m in messages) == 1, (name, messages)
    assert sum("'base-exception'" in m and "Odd: odd" in m for m in messages) == 1
    assert loader.loaded_plugins() == {"good": "bpseg_test_plugin_4"}
    assert get_format("demo-after").render(None) == "after"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loader.load_plugins()  # once per process: no second warning


def test_the_first_registry_look_up_survives_a_plugin_that_exits(plugins):
    plugins({"exit-code": ("raise SystemExit(3)\n", None)})
    with pytest.warns(UserWarning, match="bpseg plug-in 'exit-code'"):
        assert lookup("centered").cls is CenteredPottsPotentials


def test_a_keyboard_interrupt_while_a_plugin_loads_still_interrupts(plugins):
    plugins({"interrupted": ("raise KeyboardInterrupt\n", None)})
    with pytest.raises(KeyboardInterrupt):
        loader.load_plugins()


def test_what_a_plugin_prints_while_it_loads_goes_to_stderr(plugins, capsys):
    plugins({"loud": ("print('HELLO')\n", None), "loud-function": ("def hello():\n    print('HI')\n", "hello")})
    loader.load_plugins()
    out = capsys.readouterr()
    assert out.out == "" and out.err == "HELLO\nHI\n"
    print("after")  # stdout is stdout again
    assert capsys.readouterr().out == "after\n"
