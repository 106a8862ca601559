"""Packaging (issue 35, points 1 and 13 and the namespace acceptance): nothing but
``pokerdyn`` is installed at top level, output folders are never packages, and the wheel
ships py.typed, the package data and the license.

The wheel test builds with ``pip wheel`` (setuptools from the package index, as CI does) and
installs it into a fresh virtual environment; deselect it offline with ``-m "not packaging"``.
"""
from __future__ import annotations

import os
import runpy
import shutil
import subprocess
import sys
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

import pokerdyn

ROOT = Path(__file__).resolve().parents[1]
TOPS = ("pokerdyn", "games", "solvers", "dynamics", "figures")
SOURCES = ("pyproject.toml", "setup.py", "README.md", "LICENSE", "CITATION.cff", *TOPS)
# output folders a user's runs leave in the checkout; none of them may become a package
OUTPUTS = ("pokerdyn-out", "pokerdyn_out", "out", "build/lib", "dist")


def _setup_kwargs(root: Path) -> dict:
    """The arguments setup.py gives setuptools.setup when run in ``root``."""
    import setuptools

    seen: dict = {}
    old, cwd = setuptools.setup, os.getcwd()
    setuptools.setup = lambda **kw: seen.update(kw)
    try:
        os.chdir(root)
        runpy.run_path(str(ROOT / "setup.py"), run_name="__main__")
    finally:
        setuptools.setup = old
        os.chdir(cwd)
    return seen


def test_packages_are_pokerdyn_only_and_never_output_folders(tmp_path):
    for top in TOPS:
        (tmp_path / top / "sub").mkdir(parents=True)
        (tmp_path / top / "__init__.py").touch()
        (tmp_path / top / "sub" / "__init__.py").touch()
    for out in OUTPUTS:  # output folders that look like the package
        for top in TOPS:
            (tmp_path / out / top).mkdir(parents=True)
            (tmp_path / out / top / "__init__.py").touch()
        (tmp_path / out / "__init__.py").touch()
    kw = _setup_kwargs(tmp_path)
    assert sorted(kw["packages"]) == sorted(
        ["pokerdyn", "pokerdyn.sub"] + [f"pokerdyn.{t}{s}" for t in TOPS[1:] for s in ("", ".sub")])
    assert kw["package_dir"] == {"pokerdyn": "pokerdyn", **{f"pokerdyn.{t}": t for t in TOPS[1:]}}


def test_the_checkouts_packages_all_live_under_pokerdyn():
    kw = _setup_kwargs(ROOT)
    assert {"pokerdyn", "pokerdyn.games", "pokerdyn.solvers", "pokerdyn.api"} <= set(kw["packages"])
    assert all(p == "pokerdyn" or p.startswith("pokerdyn.") for p in kw["packages"])
    assert not [p for p in kw["packages"] if "out" in p.split(".")]


def test_metadata_is_single_sourced_and_complete():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    project = meta["project"]
    assert "version" in project["dynamic"] and "version" not in project
    assert meta["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "pokerdyn.__version__"}
    assert pokerdyn.__version__ == "0.1.0"
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert project["authors"] and project["classifiers"] and project["urls"]
    assert "Typing :: Typed" in project["classifiers"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n\nCopyright (c) ")
    assert "the pokerdyn authors" in (ROOT / "LICENSE").read_text()
    assert "version: 0.1.0" in (ROOT / "CITATION.cff").read_text()
    assert (ROOT / "pokerdyn" / "py.typed").exists()
    assert "py.typed" in meta["tool"]["setuptools"]["package-data"]["pokerdyn"]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel of a copy of the checkout (the build writes build/ beside the sources), with
    output folders beside it that must stay out."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "out")
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=ignore)
        else:
            shutil.copy2(path, src / name)
    for out in ("pokerdyn-out", "pokerdyn_out"):
        (src / out / "games").mkdir(parents=True)
        (src / out / "__init__.py").touch()
        (src / out / "games" / "__init__.py").touch()
    dist = tmp / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "-q", "-w", str(dist)],
                   cwd=src, check=True, capture_output=True, text=True)
    (whl,) = dist.glob("pokerdyn-*.whl")
    return whl


@pytest.mark.packaging
def test_the_wheel_holds_only_pokerdyn_and_its_data(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert wheel.name == f"pokerdyn-{pokerdyn.__version__}-py3-none-any.whl"
    assert {n.split("/")[0] for n in names} == {"pokerdyn", "pokerdyn-0.1.0.dist-info"}
    for data in ("pokerdyn/py.typed", "pokerdyn/games/catalog/data/cards.json",
                 "pokerdyn/games/preflop/data/hu_equity.npz",
                 "pokerdyn/figures/tournament/data/hu_chart.json",
                 "pokerdyn-0.1.0.dist-info/licenses/LICENSE"):
        assert data in names, data
    assert any(n.startswith("pokerdyn/figures/mercer/data/") and n.endswith(".json")
               for n in names)
    meta = zipfile.ZipFile(wheel).read("pokerdyn-0.1.0.dist-info/METADATA").decode()
    assert "License-Expression: MIT" in meta and "Author: the pokerdyn authors" in meta
    assert "Project-URL: " in meta and "Classifier: Typing :: Typed" in meta


@pytest.mark.packaging
def test_installed_only_pokerdyn_is_importable(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=True).create(env_dir)  # this pip installs into it
    py = env_dir / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q",
                    "--no-deps", "--force-reinstall", str(wheel)],
                   check=True, capture_output=True, text=True)
    run = tmp_path / "run"
    run.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH")}
    code = ("import importlib, pokerdyn, pokerdyn.games\n"
            "print(pokerdyn.__file__)\n"
            "from pokerdyn.games.catalog.cards import recorded_cards\n"
            "print(len(recorded_cards()))\n"
            "for top in ('games', 'solvers', 'dynamics', 'figures'):\n"
            "    try:\n"
            "        importlib.import_module(top)\n"
            "    except ModuleNotFoundError as e:\n"
            "        print('missing', e.name)\n")
    out = subprocess.run([str(py), "-c", code], cwd=run, env=env, check=True,
                         capture_output=True, text=True).stdout.splitlines()
    assert Path(out[0]).resolve().is_relative_to(env_dir.resolve())
    assert out[1] == "12"
    assert out[2:] == [f"missing {t}" for t in ("games", "solvers", "dynamics", "figures")]
    version = subprocess.run([str(env_dir / "bin" / "pokerdyn"), "--version"], cwd=run, env=env,
                             check=True, capture_output=True, text=True).stdout
    assert version == "pokerdyn 0.1.0\n"
