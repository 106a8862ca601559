"""The one thing pyproject.toml cannot say: the repository's top folders games/, solvers/,
dynamics/ and figures/ are installed as subpackages of the one import name ``pokerdyn``
(``pokerdyn.games``, ...), beside the API and command line in pokerdyn/.  Everything else
about the package is in pyproject.toml."""
from setuptools import find_packages, setup

SUBPACKAGES = ("games", "solvers", "dynamics", "figures")

packages = find_packages(include=["pokerdyn", "pokerdyn.*"])
package_dir = {"pokerdyn": "pokerdyn"}
for top in SUBPACKAGES:
    packages += [f"pokerdyn.{name}" for name in find_packages(include=[top, f"{top}.*"])]
    package_dir[f"pokerdyn.{top}"] = top

setup(packages=packages, package_dir=package_dir)
