"""Counts the pixels of the given colours in a PNG screenshot: how a test sees that each chart was drawn.

Usage: chart_pixels.py SCREENSHOT.png '#rrggbb' ... ; prints {"#rrggbb": pixels, ...} as JSON.
"""
import json
import sys

from PIL import Image

image = Image.open(sys.argv[1]).convert("RGB")
counts = {color.lower(): 0 for color in sys.argv[2:]}
for pixels, (red, green, blue) in image.getcolors(maxcolors=image.width * image.height):
    color = f"#{red:02x}{green:02x}{blue:02x}"
    if color in counts:
        counts[color] += pixels
print(json.dumps(counts))
