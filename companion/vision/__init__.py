"""Camera sources (picamera2, OpenCV, folder, rendered) and pure readers for notes and cards."""
