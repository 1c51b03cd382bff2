"""Dashboard templates and static files, shipped inside the package as ``companion.web``.

Locate them with ``importlib.resources.files("companion.web")``.
"""
