#!/usr/bin/python3
"""The transformer figure's experiment in PyTorch: the four variants of <nl-transformer-training> trained on the
article's English text at every learning rate of its sweep, with the figure's model, batches and schedule.

Run with Debian's python3 (apt install python3-torch python3-numpy):

    /usr/bin/python3 scripts/gen_transformer_sweep.py

Writes tests/conformance/transformer-sweep.json. The model and optimizer are those of
scripts/gen_transformer_references.py (torch.autograd in float64, torch.optim.AdamW, parameters and moments rounded
to float32 after each step as tfm_step does); the figure's choices are written here again from its documentation:
d_model 32, 2 heads, context 32, MLP 4 x 32 GELU, tied head, seed 0; AdamW beta 0.9 / 0.95, weight decay 0.1,
warm-up 30 steps, cosine to 0.1 x lr at step 300, clipping at 1; batches of 8 windows of 32 characters, step k
(from 0) reading the windows at ((8k + b) * 7919) mod (N - 33); the validation loss every 10 steps on the 8
held-out windows at b * floor((N_val - 33) / 8). A run that meets a loss or gradient that is not finite stops
there, as tfm_step does.
"""
import json
import math
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
from gen_transformer_references import block_norms, init, model, rate  # noqa: E402

torch.set_default_dtype(torch.float64)
torch.set_num_threads(1)
ROOT = os.path.join(os.path.dirname(__file__), '..')
VARIANTS = {
    'Post-LN': {'placement': 'post', 'norm': 'layer_norm', 'qk_norm': 'none'},
    'Pre-LN': {'placement': 'pre_final', 'norm': 'layer_norm', 'qk_norm': 'none'},
    'Pre-RMS': {'placement': 'pre_final', 'norm': 'rms_norm', 'qk_norm': 'none'},
    'Pre-RMS + QK-Norm': {'placement': 'pre_final', 'norm': 'rms_norm', 'qk_norm': 'rms_norm'},
}
LRS = [0.001, 0.003, 0.01, 0.03, 0.1, 0.3]
STEPS, B, T = 300, 8, 32
OPT = {'beta1': 0.9, 'beta2': 0.95, 'weight_decay': 0.1, 'warmup': 30, 'total': 300, 'lr_min': 0.1, 'clip': 1.0}


def corpus(lang):
    src = open(os.path.join(ROOT, 'web/components/data/transformer-corpus.js'), encoding='utf8').read()
    data = json.loads(src[src.index('{'):src.rindex('}') + 1])[lang]
    index = {ch: i for i, ch in enumerate(data['vocab'])}
    rare = len(data['vocab']) - 1
    ids = lambda text: np.array([index.get(ch, rare) for ch in text])  # noqa: E731
    return data['vocab'], ids(data['train']), ids(data['val'])


def windows(ids, offsets):
    return (np.stack([ids[o:o + T] for o in offsets]), np.stack([ids[o + 1:o + T + 1] for o in offsets]))


def run(c, lr, train_ids, val_ids):
    pt = torch.tensor(init(c, 0), requires_grad=True)
    opt = torch.optim.AdamW([pt], lr=lr, betas=(OPT['beta1'], OPT['beta2']), eps=1e-8,
                            weight_decay=OPT['weight_decay'])
    N, Nv = len(train_ids), len(val_ids)
    val = windows(val_ids, [b * ((Nv - 33) // 8) for b in range(B)])
    rec = {'loss': [], 'val': [], 'max_logit': [], 'status': 0}
    for k in range(STEPS):
        tokens, targets = windows(train_ids, [((k * B + b) * 7919) % (N - 33) for b in range(B)])
        for grp in opt.param_groups:
            grp['lr'] = rate(k + 1, lr, OPT['warmup'], OPT['total'], OPT['lr_min'])
        opt.zero_grad()
        loss, _, maxl, _, _, _ = model(pt, tokens, targets, c)
        if not math.isfinite(loss.item()):
            rec['status'] = 1
            break
        loss.backward()
        if not all(math.isfinite(g) for g in block_norms(pt.grad.numpy(), c)):
            rec['status'] = 1
            break
        torch.nn.utils.clip_grad_norm_([pt], OPT['clip'])
        opt.step()
        with torch.no_grad():
            pt.copy_(pt.float().double())
            for key in ('exp_avg', 'exp_avg_sq'):
                opt.state[pt][key].copy_(opt.state[pt][key].float().double())
        rec['loss'].append(loss.item())
        rec['max_logit'].append(maxl)
        if (k + 1) % 10 == 0:
            with torch.no_grad():
                rec['val'].append(model(pt, val[0], val[1], c)[0].item())
    return rec


def main():
    vocab, train_ids, val_ids = corpus('en')
    base = {'vocab': len(vocab), 'd_model': 32, 'heads': 2, 'layers': 2, 'context': T, 'mlp_ratio': 4,
            'activation': 'gelu', 'tied': True, 'eps': 1e-5, 'z_loss': 0.0}
    out = {'model': base, 'optimizer': OPT, 'steps': STEPS, 'batch': [B, T], 'lrs': LRS, 'runs': []}
    only = sys.argv[1:]  # optional variant names
    for name, v in VARIANTS.items():
        if only and name not in only:
            continue
        for lr in LRS:
            r = run(dict(base, **v), lr, train_ids, val_ids)
            out['runs'].append({'variant': name, 'lr': lr, **r})
            print(f'{name:18s} lr {lr:<6} steps {len(r["loss"]):3d} loss {r["loss"][-1] if r["loss"] else None} '
                  f'val {r["val"][-1] if r["val"] else None} max logit {r["max_logit"][-1] if r["max_logit"] else None}',
                  file=sys.stderr, flush=True)
    path = os.path.join(ROOT, 'tests/conformance/transformer-sweep.json')
    with open(path, 'w') as f:
        json.dump(out, f)
    print('wrote', path, file=sys.stderr)


if __name__ == '__main__':
    main()
