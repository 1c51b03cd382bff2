"""Package layout: companion/* (with the games' static/ folders) plus the top-level web/ folder
shipped as ``companion.web``.

All other metadata lives in pyproject.toml.
"""
import os

from setuptools import find_namespace_packages, find_packages, setup

WEB_PACKAGES = ["companion.web"] + [
    "companion.web." + os.path.relpath(root, "web").replace(os.sep, ".")
    for root, _dirs, _files in os.walk("web")
    if root != "web"
]

# The club's data folders (templates/, static/) hold no Python: they are listed as packages of
# data only, so the build neither warns that they are "absent from packages" (two warnings of 40
# lines each at every `make`) nor leaves them out.
CLUB_DATA = find_namespace_packages(include=["companion.club.templates", "companion.club.static"])
# Likewise each game's page scripts (companion/games/<id>/static/: its board, served from the package).
GAME_DATA = find_namespace_packages(include=["companion.games.*.static"])

setup(
    packages=find_packages(include=["companion", "companion.*"])
    + CLUB_DATA
    + GAME_DATA
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
        **{pkg: ["*"] for pkg in CLUB_DATA + GAME_DATA},
        "companion.vision.models": ["*.onnx", "*.json", "*.md"],
        "companion.web": ["**/*"],
        "companion.hardware": ["*.json", "*.csv", "*.svg", "*.rules"],
    },
    include_package_data=True,
)
