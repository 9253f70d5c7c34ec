#!/usr/bin/env python3
# Peer: a native pocketsphinx 5 build the user points at (--pocketsphinx BIN), run as a user runs it:
# one `pocketsphinx align` process per file, the model and dictionary loaded by each. Words the dictionary
# lacks are left out of the text, as pocketsphinx requires. The report line carries the CPU time of the
# pocketsphinx processes alone (this driver's own start-up is not theirs).
# With `trim`, each process reads a dictionary of its transcript's words only (every pronunciation of
# each), written by this driver beforehand: reading the whole 134,000-word dictionary costs a process
# about 0.15 s of CPU, more than aligning a 3-second file, and a user scripting pocketsphinx can avoid it.
# Usage: pocketsphinx-native.py BIN MODEL_DIR DICT [trim] MANIFEST.json OUT_DIR
import json
import os
import re
import resource
import subprocess
import sys
import time

args = sys.argv[1:]
trim = len(args) == 6 and args[3] == 'trim'
if trim:
    del args[3]
binary, model, dict_path, manifest, out_dir = args[:5]
start = time.monotonic()
entries = {}
with open(dict_path, encoding='utf-8', errors='replace') as f:
    for line in f:
        w = line.split(' ', 1)[0]
        entries.setdefault(re.sub(r'\(\d+\)$', '', w), []).append(line)
words = entries.keys()
items = json.load(open(manifest))
per_file = []
failed = 0
cpu = 0.0
peak = 0.0
for it in items:
    t0 = time.monotonic()
    text = ' '.join(w for w in re.sub(r"[^a-z' ]+", ' ', it['text'].lower()).split() if w in words)
    file_dict = dict_path
    if trim:
        file_dict = os.path.join(out_dir, f"{it['uid']}.dict")
        with open(file_dict, 'w', encoding='utf-8') as f:
            for w in sorted(set(text.split())):
                f.writelines(entries[w])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(
        [binary, '-hmm', model, '-dict', file_dict, '-loglevel', 'FATAL', 'align', it['audio'], text],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu += (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    peak = max(peak, after.ru_maxrss / 1024)
    out = []
    try:
        result = json.loads(r.stdout.strip().splitlines()[-1])
        for w in result.get('w', []):
            t = w['t']
            if t.startswith('<') or t.startswith('['):
                continue
            out.append({'word': re.sub(r'\(\d+\)$', '', t), 'start': w['b'], 'end': w['b'] + w['d']})
    except (IndexError, ValueError, KeyError):
        failed += 1
    with open(f"{out_dir}/{it['uid']}.json", 'w') as f:
        json.dump({'words': out}, f)
    per_file.append(time.monotonic() - t0)
print(json.dumps({'startup': 0, 'perFile': per_file, 'failed': failed, 'childCpu': cpu, 'peakRssMb': peak}))
