"""The one part of the package layout that pyproject.toml cannot say: the repository's top-level
``resources/`` folder (fonts, sounds, the ``zero`` network, icons, the opening book) is shipped inside the package as
``xqdesk/resources/``, where :mod:`xqdesk.resource_files` reads it through importlib.resources.
Only its data goes in (see ``package-data`` in pyproject.toml), not the scripts that make it.
Everything else is in pyproject.toml.
"""
from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py

RESOURCE_FOLDERS = ("fonts", "sounds", "networks", "icons", "book")


class BuildPy(build_py):
    """``build_py`` that takes no Python modules from ``resources/`` (its generator scripts)."""

    def find_package_modules(self, package, package_dir):
        if package == "xqdesk.resources" or package.startswith("xqdesk.resources."):
            return []
        return super().find_package_modules(package, package_dir)


setup(
    # namespace packages too: a data folder such as xqdesk/data is then a package, not a warning
    packages=[*find_namespace_packages(include=["xqdesk", "xqdesk.*"], exclude=["*.__pycache__"]),
              "xqdesk.resources", *(f"xqdesk.resources.{folder}" for folder in RESOURCE_FOLDERS)],
    package_dir={"xqdesk.resources": "resources"},
    cmdclass={"build_py": BuildPy},
)
