"""What pyproject.toml cannot say: static/ ships inside the server package.

The browser client stays at the repository's top (``static/``, where its authors edit it),
while a plain, non-editable ``pip install .`` must still serve it: so the wheel maps it to
``server/static`` as package data (``server.app._packaged_static`` looks in both places).
Everything else about the package is in pyproject.toml.
"""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["engine*", "server*"]), "server.static"],
    package_dir={"server.static": "static"},
    package_data={"server.static": ["**/*"]},
)
