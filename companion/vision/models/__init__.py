"""Model files the readers load (data, no code): the int8 copy of the wheel's text detector
(``tools/quantize_models.py``, index ``int8.json``). A package so that setuptools ships them."""
