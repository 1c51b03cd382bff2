"""Package layout: companion/* plus the top-level web/ folder shipped as ``companion.web``.

All other metadata lives in pyproject.toml.
"""
import os

from setuptools import find_packages, setup

WEB_PACKAGES = ["companion.web"] + [
    "companion.web." + os.path.relpath(root, "web").replace(os.sep, ".")
    for root, _dirs, _files in os.walk("web")
    if root != "web"
]

setup(
    packages=find_packages(include=["companion", "companion.*"]) + WEB_PACKAGES,
    package_dir={"companion.web": "web"},
    package_data={
        "companion": ["**/*.json", "**/*.jsonl", "**/*.toml", "**/*.svg", "**/*.png"],
        "companion.web": ["**/*"],
    },
    include_package_data=True,
)
