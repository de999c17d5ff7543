"""Checks pictures as a reader would meet them: each file is well-formed
SVG, rsvg-convert renders it, and no text runs off the canvas (its width
estimated at 0.55 em per character, wider than DejaVu Sans averages).
Prints one line per file: `ok NAME WIDTHxHEIGHT TEXTS` or what is wrong."""
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

NS = '{http://www.w3.org/2000/svg}'


def check(path):
    root = ET.parse(path).getroot()
    if root.tag != NS + 'svg':
        return 'root element is %s, not svg' % root.tag
    width, height = float(root.get('width')), float(root.get('height'))
    texts = 0
    for text in root.iter(NS + 'text'):
        texts += 1
        if text.get('transform'):
            continue
        content = ''.join(text.itertext())
        size = float(text.get('font-size', root.get('font-size', '12')))
        x, y = float(text.get('x')), float(text.get('y'))
        span = 0.55 * size * len(content)
        anchor = text.get('text-anchor', 'start')
        left = x if anchor == 'start' else x - span if anchor == 'end' else x - span / 2
        if left < -1 or left + span > width + 1 or y < size * 0.7 or y > height + 1:
            return 'text %r at (%s, %s) runs off the %gx%g canvas' % (content, x, y, width, height)
    with tempfile.TemporaryDirectory() as scratch:
        png = os.path.join(scratch, 'out.png')
        result = subprocess.run(['rsvg-convert', path, '-o', png], capture_output=True, text=True)
        if result.returncode != 0 or not os.path.getsize(png):
            return 'rsvg-convert failed: ' + result.stderr.strip()
    return 'ok %s %gx%g %d' % (os.path.basename(path), width, height, texts)


for name in sys.argv[1:]:
    print(check(name))
