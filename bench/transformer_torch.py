#!/usr/bin/python3
"""Milliseconds per training step of one of bench/transformer.mjs's models in PyTorch CPU eager, one thread,
float32: the model of scripts/gen_transformer_references.py (torch.autograd) and torch.optim.AdamW with clipping.
argv: rounds vocab d_model heads layers context qk_norm (batch 8 x context). Prints the median ms per step."""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'scripts'))
import numpy as np  # noqa: E402
import torch  # noqa: E402
from gen_transformer_references import init, model  # noqa: E402

torch.set_num_threads(1)
torch.set_default_dtype(torch.float32)
rounds, steps = int(sys.argv[1]), 3
V, D, H, L, T = (int(a) for a in sys.argv[2:7])
B = 8
c = {'vocab': V, 'd_model': D, 'heads': H, 'layers': L, 'context': T, 'mlp_ratio': 4, 'qk_norm': sys.argv[7]}
p = torch.tensor(init(c, 0), dtype=torch.float32, requires_grad=True)
i = np.arange(B * T)
tokens = torch.tensor(((i * 7 + i // 5) % V).reshape(B, T))
targets = torch.tensor(((i * 7 + 7 + (i + 1) // 5) % V).reshape(B, T))
opt = torch.optim.AdamW([p], lr=1e-3, betas=(0.9, 0.95), weight_decay=0.0)
times = []
for r in range(rounds):
    a = time.perf_counter()
    for _ in range(steps):
        opt.zero_grad()
        loss = model(p, tokens, targets, c)[0]
        loss.backward()
        torch.nn.utils.clip_grad_norm_([p], 1.0)
        opt.step()
    times.append((time.perf_counter() - a) * 1000 / steps)
print('%.4f' % sorted(times)[len(times) // 2])
