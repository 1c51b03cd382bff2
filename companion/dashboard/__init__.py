"""The phone dashboard: Flask app factory and blueprints; templates/static come from web/."""
