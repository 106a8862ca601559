"""The catalogue (issue 35): ``pd.catalog()`` is ``pokerdyn games``; the listing comes from
recorded cards (nothing built), each of which matches a fresh build of its game; the
registry imports a game's module only when that game is built."""
from __future__ import annotations

import json

import pytest

import pokerdyn as pd
from pokerdyn.cli import main
from pokerdyn.games.catalog import registry
from pokerdyn.games.catalog.cards import CARD_KEYS, card, describe, recorded_cards


def _run(capsys, *argv):
    rc = main(list(argv))
    out = capsys.readouterr().out
    assert rc == 0
    return out


def test_json_equals_the_api(capsys):
    listing = json.loads(_run(capsys, "games", "--json"))
    assert listing == json.loads(json.dumps(pd.catalog().to_dict()))
    assert [r["game"] for r in listing] == list(registry.GAMES)
    one = json.loads(_run(capsys, "games", "river(street=half)", "--json"))
    assert one == json.loads(json.dumps(pd.catalog("river(street=half)").to_dict()))
    assert one == pd.catalog(["river(street=half)"]).to_dict()
    assert one["game"] == "river(street=half)" and one["options"]["street"] == "full"
    two = json.loads(_run(capsys, "games", "skp", "kuhn", "--json"))
    assert two == pd.catalog(["skp", "kuhn"]).to_dict() and [r["game"] for r in two] == \
        ["skp", "kuhn"]


def test_text_equals_the_api(capsys):
    assert _run(capsys, "games") == pd.catalog().to_text() + "\n"
    assert _run(capsys, "games", "skp") == pd.catalog("skp").to_text() + "\n"
    text = pd.catalog().to_text()
    assert text.startswith("kuhn              2P     55 nodes  12 parameters (b1_J c1_J ")
    assert "selby             2P 656904 nodes  2366 parameters" in text
    assert text.endswith("'openspiel:leduc_poker(players=3)' imports an OpenSpiel game.")


def test_catalog_takes_a_built_game():
    g = pd.game("skp")
    assert pd.catalog(g).to_dict() == pd.catalog("skp").to_dict() == card("skp")
    assert pd.catalog(g).to_dict()["parameters"] == ["b_J", "c_K", "d_Q"]


def test_bad_input_is_the_command_line(capsys):
    with pytest.raises(pd.GameError, match=r"^unknown game 'nosuch'; available: kuhn, "):
        pd.catalog("nosuch")
    with pytest.raises(pd.GameError, match="is not a game"):
        pd.catalog(3.5)
    assert main(["games", "nosuch"]) == 2
    assert capsys.readouterr().err.startswith("pokerdyn: error: unknown game 'nosuch'")


def test_the_recorded_cards_match_their_games():
    """data/cards.json is what a build says (rerun games.catalog.cards.record_cards after
    changing a game, its options or defaults); mercer-mmh and selby take seconds each."""
    recorded = recorded_cards()
    assert list(recorded) == list(registry.GAMES)
    for name in registry.GAMES:
        built = describe(registry.get_game(name), name)
        assert list(built) == list(CARD_KEYS)
        assert recorded[name] == json.loads(json.dumps(built)), name


def test_a_game_registered_at_run_time_is_built_for_its_card(monkeypatch):
    from pokerdyn.games.catalog.kuhn import kuhn

    calls = []
    monkeypatch.setitem(registry.GAMES, "kuhn-copy", lambda: calls.append(1) or kuhn())
    cards = pd.catalog().to_dict()
    assert calls == [1] and cards[-1]["game"] == "kuhn-copy" and cards[-1]["nodes"] == 55
    monkeypatch.setattr(registry, "_BUILT", type(registry._BUILT)())
    monkeypatch.setitem(registry.GAMES, "kuhn", lambda: calls.append(2) or kuhn())
    assert not registry.GAMES.shipped("kuhn")
    pd.catalog()
    assert 2 in calls


def test_the_registry_is_lazy_and_restores_like_a_dict(monkeypatch):
    games = registry.LazyRegistry({"a": "pokerdyn.games.catalog.kuhn:skp"})
    assert list(games) == ["a"] and "a" in games and len(games) == 1
    assert games.shipped("a") and isinstance(games._data["a"], str)  # nothing imported yet
    assert games["a"]().name == "skp" and games.shipped("a")
    monkeypatch.setitem(games, "a", lambda: None)
    assert not games.shipped("a")
    monkeypatch.undo()
    assert games.shipped("a") and games["a"]().name == "skp"


def test_frame_has_one_row_per_game_and_repr_is_short():
    pytest.importorskip("pandas")
    cat = pd.catalog()
    df = cat.to_frame()
    assert list(df["game"]) == list(registry.GAMES) and list(df.columns) == list(CARD_KEYS)
    assert df.set_index("game").loc["mercer-mmh", "nodes"] == 31831
    text = repr(cat)
    assert len(text) < 2000 and text.startswith("Catalog(games=['kuhn', 'kuhn3', ")
