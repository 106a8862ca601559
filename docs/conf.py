"""Sphinx configuration of pokerdyn's documentation.

Build (the README's line): ``pip install ".[docs]" && sphinx-build -W -n -b html docs
docs/_build/html``.  The tutorials are MyST Markdown notebooks (jupytext text, no .ipynb in
git) executed by MyST-NB on every build; the reference pages for the command line and the
game catalogue are generated from the argparse definitions and the registry by
``_ext/pokerdyn_docs.py`` each build.  The site documents the installed package: build it
after ``pip install``, as the test does.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))  # the docs' own extension, not the package

import pokerdyn  # noqa: E402  (the installed package)

project = "pokerdyn"
author = "The pokerdyn developers"
copyright = "2026, The pokerdyn developers"
release = version = pokerdyn.__version__

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "sphinx.ext.doctest",
    "sphinx_copybutton",
    "pokerdyn_docs",
]

source_suffix = {".md": "myst-nb", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "**/.ipynb_checkpoints", "_ext"]
myst_enable_extensions = ["dollarmath", "colon_fence", "deflist"]
myst_heading_anchors = 3

# notebooks: executed on every build, a cell error fails the build (-W turns the warning
# into an error); each tutorial runs in under about two minutes on 2 cores
# POKERDYN_DOCS_EXECUTE=0: a quick build that runs no notebook (while writing prose)
nb_execution_mode = "off" if os.environ.get("POKERDYN_DOCS_EXECUTE") == "0" else "force"
nb_execution_timeout = 300
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_merge_streams = True
nb_output_stderr = "remove"  # library warnings (tqdm without ipywidgets) are not the lesson
nb_render_markdown_format = "myst"  # Markdown outputs (the papers page) with tables
# the kernels show figures inline (PNG), whatever backend the build's environment names
# (.ci/run and the tests set MPLBACKEND=Agg, which a kernel would otherwise inherit)
os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"

# the reference: numpy-style docstrings, the signature's types in the description
autodoc_typehints = "description"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": False}
napoleon_numpy_docstring = True
napoleon_google_docstring = False
napoleon_use_rtype = False

# nitpicky (-n): every cross-reference resolves.  The names below belong to other
# libraries (no intersphinx: the build runs without a network) or are type aliases that
# docstrings spell in prose.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(numpy|np|pandas|pd|matplotlib|sympy|sp|scipy|dask|numba)\..*"),
    (r"py:.*", r"(NDArray|ArrayLike|DataFrame|Axes|Figure|Expr|Rational|Path|Sequence|"
               r"Mapping|Iterable|Callable|Any|Literal|Optional|Union|TextIO|"
               r"optional|callable|array_like|array|ndarray|float64|int64|path-like|"
               r"file-like|mapping|sequence|iterable|tuple of .*|list of .*|dict of .*|"
               r".* or .*|.*, optional|\{.*\}|default .*)"),
    (r"py:class", r"(pathlib|os|typing|collections\.abc|concurrent\.futures)\..*"),
    (r"py:class", r"pokerdyn\.(games|solvers|dynamics|figures|api)\..*"),
    # the library's internal docstrings name its modules by their folder paths
    # (``solvers.symbolic.axis``): internals the reference does not document
    (r"py:.*", r"~?\.?(games|solvers|dynamics|figures)\..*"),
    (r"py:.*", r"(GameError|METHODS|SolverResult|describe|MethodOptions|Method|cache_path|"
               r"make_game|hu_chart|one_level_face|pyspiel\.Game|shape|n_infosets|n_actions|"
               r"load_openspiel|\.?entry\.\w+)"),
    (r"py:class", r"(Game|CompiledGame|Result|Stages|Trajectory|Family|Solution|Catalog|"
                  r"Reproduced|PushFoldChart|Fraction|\w+Result)"),
    # the prose words of numpy-style type lines ("number or pair", "path, optional", the
    # choices of a {"a", "b"} set)
    (r"py:class", r"(number|path|pair|low|high|them|sympy number|str|int|float|bool|None|"
                  r'[{]?"[^"]*"[}]?)'),
]

html_theme = "furo"
html_title = f"pokerdyn {release}"
html_static_path = ["_static"]
# long text outputs of executed cells wrap instead of scrolling sideways (_static/pokerdyn.css)
html_css_files = ["pokerdyn.css"]
html_show_sourcelink = False
