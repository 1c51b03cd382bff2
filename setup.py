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
    packages=find_packages(include=["companion", "companion.*"])
    + WEB_PACKAGES
    + ["companion.devices.firmware", "companion.hardware"],
    # Top-level folders shipped inside the package, one copy each: the dashboard's web/, the
    # button-box firmware/ (the host runs its framing and logic) and hardware/ (the pin map).
    package_dir={
        "companion.web": "web",
        "companion.devices.firmware": "firmware",
        "companion.hardware": "hardware",
    },
    package_data={
        "companion": ["**/*.json", "**/*.jsonl", "**/*.toml", "**/*.svg", "**/*.png"],
        "companion.club": ["templates/*.html", "static/*", "translations/*/LC_MESSAGES/*", "babel.cfg"],
        "companion.vision.models": ["*.onnx", "*.json", "*.md"],
        "companion.web": ["**/*"],
        "companion.hardware": ["*.json", "*.csv", "*.svg", "*.rules"],
    },
    include_package_data=True,
)
