#!/usr/bin/python3
"""Reference cases for the training ops, from torch.autograd and torch.optim in float64.

Run with Debian's python3 (apt install python3-torch python3-numpy):

    /usr/bin/python3 scripts/gen_training_references.py

Writes tests/conformance/cases/training.json (conformance cases: the backward
passes of LayerNorm and RMSNorm, whole-network gradients for every placement,
norm and gate, 20-step SGD and Adam runs with clipping and warm-up, and the
seeded initialisation and data) and tests/conformance/training-presets.json
(the outcome of each preset of <nl-depth-training>, trained here in PyTorch
from the same seeded start). The network is the one documented at the top of
cpp/src/ops_training.cpp; it is written here again, independently, in torch.
"""
import json
import math
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(__file__))
from gen_references import Family, f32, tensor  # noqa: E402

torch.set_default_dtype(torch.float64)
HERE = os.path.dirname(__file__)
rng = np.random.default_rng(20261130)
MASK = (1 << 64) - 1


class Normal:
    """splitmix64 bits, Marsaglia's polar method: the seeded stream the ops document."""

    def __init__(self, seed):
        self.state = seed & MASK
        self.spare = None

    def uniform(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
        return ((z >> 11) + 0.5) / 9007199254740992.0

    def next(self):
        if self.spare is not None:
            v, self.spare = self.spare, None
            return v
        while True:
            u, v = 2 * self.uniform() - 1, 2 * self.uniform() - 1
            r = u * u + v * v
            if 0 < r < 1:
                break
        f = math.sqrt(-2 * math.log(r) / r)
        self.spare = v * f
        return u * f


def layout(L, W):
    per = 2 * W * W + 5 * W
    blocks = [3 * W + l * per for l in range(L)]
    final = 3 * W + L * per
    head = final + 2 * W
    return blocks, final, head, head + 2 * W + 2


def init(L, W, gate, seed):
    blocks, final, head, n = layout(L, W)
    p = np.zeros(n)
    g = Normal(seed)

    def draw(at, count, fan):
        for i in range(count):
            p[at + i] = g.next() / math.sqrt(fan)
    draw(0, 2 * W, 2)
    for b in blocks:
        draw(b, W * W, W)
        draw(b + W * W + W, W * W, W)
        p[b + 2 * W * W + 2 * W: b + 2 * W * W + 3 * W] = 1
        p[b + 2 * W * W + 4 * W: b + 2 * W * W + 5 * W] = {'none': 1, 'zero': 0, 'layer_scale': 0.1}[gate]
    p[final:final + W] = 1
    draw(head, 2 * W, W)
    return p


def spirals(count, turns, noise, seed):
    g = Normal(seed)
    half = count // 2
    x, y = np.zeros((count, 2)), np.zeros(count)
    for k in range(2):
        for i in range(half):
            t = (i + 0.5) / half
            a = turns * 2 * math.pi * t + k * math.pi
            x[k * half + i, 0] = t * math.cos(a) + noise * g.next()
            x[k * half + i, 1] = t * math.sin(a) + noise * g.next()
            y[k * half + i] = k
    return x, y


def norm(h, gamma, beta, rms, eps):
    if rms:
        return h / torch.sqrt((h * h).mean(-1, keepdim=True) + eps) * gamma
    return F.layer_norm(h, (h.shape[-1],), gamma, beta, eps)


def network(p, x, labels, L, W, placement, normk, gate, eps=1e-5):
    """loss, the residual stream h_0..h_L (with retained grads)"""
    blocks, final, head, _ = layout(L, W)
    rms = normk == 'rms_norm'
    x = torch.as_tensor(x)
    h = x @ p[:2 * W].view(2, W) + p[2 * W:3 * W]
    stream = [h]
    for b in blocks:
        W1 = p[b:b + W * W].view(W, W)
        b1 = p[b + W * W:b + W * W + W]
        W2 = p[b + W * W + W:b + 2 * W * W + W].view(W, W)
        b2 = p[b + 2 * W * W + W:b + 2 * W * W + 2 * W]
        gam = p[b + 2 * W * W + 2 * W:b + 2 * W * W + 3 * W]
        bet = p[b + 2 * W * W + 3 * W:b + 2 * W * W + 4 * W]
        a = p[b + 2 * W * W + 4 * W:b + 2 * W * W + 5 * W] if gate != 'none' else 1.0
        u = norm(h, gam, bet, rms, eps) if placement in ('pre', 'pre_final') else h
        f = torch.tanh(u @ W1 + b1) @ W2 + b2
        h = h + a * f
        if placement == 'post':
            h = norm(h, gam, bet, rms, eps)
        stream.append(h)
    z = norm(h, p[final:final + W], p[final + W:final + 2 * W], rms, eps) if placement == 'pre_final' else h
    logits = z @ p[head:head + 2 * W].view(W, 2) + p[head + 2 * W:head + 2 * W + 2]
    loss = F.cross_entropy(logits, torch.as_tensor(labels).long())
    acc = ((logits[:, 1] > logits[:, 0]).double() == torch.as_tensor(labels)).double().mean().item()
    return loss, stream, acc


def grads(p, x, labels, cfg):
    p = torch.tensor(p, requires_grad=True)
    loss, stream, _ = network(p, x, labels, **cfg)
    for h in stream:
        h.retain_grad()
    loss.backward()
    act = [math.sqrt((h.detach() ** 2).mean().item()) for h in stream]
    gn = [h.grad.norm().item() for h in stream]
    return loss.item(), p.grad.numpy(), act, gn


def train(p, x, labels, cfg, steps, opt='adam', lr=0.01, momentum=0.9, clip=0.0, warmup=0.0, stop_at=1e30):
    """(params, state m/v/t, losses, acc, act, gn, status) after `steps` steps, as train_step documents."""
    p = torch.tensor(p, requires_grad=True)
    o = torch.optim.Adam([p], lr=lr, betas=(0.9, 0.999), eps=1e-8) if opt == 'adam' else \
        torch.optim.SGD([p], lr=lr, momentum=momentum)
    losses, acc, status = [], 0.0, 0
    act = gn = None
    for t in range(1, steps + 1):
        for grp in o.param_groups:
            grp['lr'] = lr * (min(1.0, t / warmup) if warmup > 0 else 1.0)
        o.zero_grad()
        loss, stream, a = network(p, x, labels, **cfg)
        for h in stream:
            h.retain_grad()
        if not (loss.item() < stop_at):
            status = 1
            break
        loss.backward()
        act = [math.sqrt((h.detach() ** 2).mean().item()) for h in stream]
        gn = [h.grad.norm().item() for h in stream]
        if not math.isfinite(p.grad.norm().item()):
            status = 1
            break
        if clip > 0:
            torch.nn.utils.clip_grad_norm_([p], clip)
        before = p.detach().clone()
        o.step()
        if not bool((p.detach().abs() < 1e30).all()):
            with torch.no_grad():
                p.copy_(before)
            status = 1
            break
        # parameters and moments are stored in float32 between steps (train_step documents it)
        with torch.no_grad():
            p.copy_(p.float().double())
            for key in ('exp_avg', 'exp_avg_sq', 'momentum_buffer'):
                if key in o.state[p]:
                    o.state[p][key].copy_(o.state[p][key].float().double())
        losses.append(loss.item())
        acc = a
    n = p.numel()
    st = o.state[p]
    if opt == 'adam':
        state = np.concatenate([st['exp_avg'].numpy(), st['exp_avg_sq'].numpy(), [float(st['step'])]])
    else:
        state = np.concatenate([st['momentum_buffer'].numpy(), np.zeros(n), [len(losses)]])
    return p.detach().numpy(), state, losses, acc, act, gn, status


def cases():
    fam = Family('training')
    # the backward passes of LayerNorm and RMSNorm, with and without a weight
    for shape in [(1, 5), (4, 7), (2, 3, 33)]:
        for weighted in [False, True]:
            for eps in [1e-5, 0.1]:
                x, dy = f32(rng.standard_normal(shape) * 2 + 0.5), f32(rng.standard_normal(shape))
                w = f32(rng.uniform(0.5, 2, shape[-1])) if weighted else None
                for op in ['layer_norm_backward', 'rms_norm_backward']:
                    xt = torch.tensor(x.astype(np.float64), requires_grad=True)
                    wt = torch.tensor((w if weighted else np.ones(shape[-1])).astype(np.float64), requires_grad=True)
                    bt = torch.zeros(shape[-1], requires_grad=True)
                    y = norm(xt, wt, bt, op == 'rms_norm_backward', eps)
                    y.backward(torch.tensor(dy.astype(np.float64)))
                    outs = {'dx': xt.grad.numpy(), 'dweight': wt.grad.numpy()}
                    if op == 'layer_norm_backward':
                        outs['dbias'] = bt.grad.numpy()
                    fam.ok(f'{op}-{list(shape)}-w{int(weighted)}-e{eps}', op, {'x': x, 'dy': dy, 'weight': w},
                           {'eps': eps}, outs, tol=2e-5)
    # whole networks: every placement, norm and gate
    N = 16
    x, labels = spirals(N, 1.0, 0.05, 3)
    x = f32(x)
    for placement in ['none', 'post', 'pre', 'pre_final']:
        for normk in ['layer_norm', 'rms_norm']:
            for gate in ['none', 'zero', 'layer_scale']:
                for L, W in [(3, 6), (12, 8)]:
                    cfg = dict(L=L, W=W, placement=placement, normk=normk, gate=gate)
                    p = f32(init(L, W, gate, 11) + rng.standard_normal(layout(L, W)[3]) * 0.05)
                    loss, g, act, gn = grads(p.astype(np.float64), x.astype(np.float64), labels, cfg)
                    attrs = {'depth': L, 'width': W, 'placement': placement, 'norm': normk, 'gate': gate}
                    fam.ok(f'grad-{placement}-{normk}-{gate}-L{L}', 'train_grad',
                           {'params': p, 'x': x, 'labels': f32(labels)}, attrs,
                           {'loss': [loss], 'grad': g, 'act_norm': act, 'grad_norm': gn}, tol=2e-5)
    # 20 steps of training, compared step by step (the losses) and at the end
    for placement, normk, opt, lr, clip, warmup in [
            ('pre', 'layer_norm', 'adam', 0.01, 0.0, 0.0), ('post', 'layer_norm', 'adam', 0.01, 0.0, 5.0),
            ('pre_final', 'rms_norm', 'adam', 0.02, 0.5, 0.0), ('none', 'layer_norm', 'sgd', 0.1, 0.0, 0.0),
            ('post', 'rms_norm', 'sgd', 0.05, 1.0, 3.0), ('pre', 'layer_norm', 'sgd', 0.1, 0.0, 0.0)]:
        L, W = 6, 8
        cfg = dict(L=L, W=W, placement=placement, normk=normk, gate='layer_scale')
        p = f32(init(L, W, 'layer_scale', 5))
        out = train(p.astype(np.float64), x.astype(np.float64), labels, cfg, 20, opt, lr, 0.9, clip, warmup)
        attrs = {'depth': L, 'width': W, 'placement': placement, 'norm': normk, 'gate': 'layer_scale', 'steps': 20,
                 'optimizer': opt, 'lr': lr, 'clip': clip, 'warmup': warmup}
        fam.ok(f'train20-{placement}-{normk}-{opt}-c{clip}-w{warmup}', 'train_step',
               {'params': p, 'state': f32(np.zeros(2 * p.size + 1)), 'x': x, 'labels': f32(labels)}, attrs,
               {'params': out[0], 'state': out[1], 'loss': out[2], 'accuracy': [out[3]], 'act_norm': out[4],
                'grad_norm': out[5], 'status': [out[6]]}, tol=1e-4)
    # the seeded start and data the figure uses
    for L, W, gate, seed in [(2, 4, 'none', 0), (3, 5, 'zero', 42), (2, 3, 'layer_scale', 2**40 + 7)]:
        p = init(L, W, gate, seed)
        fam.ok(f'init-L{L}-W{W}-{gate}-s{seed}', 'train_init', {},
               {'depth': L, 'width': W, 'gate': gate, 'seed': seed}, {'params': p, 'state': np.zeros(2 * p.size + 1)},
               tol=1e-6)
    for count, turns, noise, seed in [(8, 1.0, 0.05, 0), (20, 1.5, 0.2, 9)]:
        xs, ys = spirals(count, turns, noise, seed)
        fam.ok(f'data-{count}-{turns}-{noise}-{seed}', 'train_data', {},
               {'count': count, 'turns': turns, 'noise': noise, 'seed': seed}, {'x': xs, 'labels': ys}, tol=1e-6)
    # bad input names the op and the argument
    good = {'params': f32(init(2, 4, 'none', 0)), 'x': x, 'labels': f32(labels)}
    fam.bad('grad-bad-placement', 'train_grad', good, {'depth': 2, 'width': 4, 'placement': 'middle'}, 'train_grad', 'placement')
    fam.bad('grad-bad-params', 'train_grad', good, {'depth': 3, 'width': 4}, 'train_grad', 'params', str(layout(3, 4)[3]))
    fam.bad('grad-bad-labels', 'train_grad', {**good, 'labels': f32(labels * 2)}, {'depth': 2, 'width': 4}, 'labels', '0 or 1')
    fam.bad('step-bad-lr', 'train_step', {**good, 'state': f32(np.zeros(2 * good['params'].size + 1))},
            {'depth': 2, 'width': 4, 'lr': -1}, 'train_step', 'lr')
    fam.bad('backward-bad-dy', 'layer_norm_backward', {'x': f32([[1, 2, 3]]), 'dy': f32([1, 2])}, {}, 'layer_norm_backward', 'dy')
    fam.write()


# The presets of <nl-depth-training>, as the figure runs them: 128 points of two spirals (seed 1), width 16,
# seed 1, 300 steps, the four placements. Kept in step with PRESETS in web/components/figures/nl-depth-training.js.
PRESETS = {
    'deep': dict(depth=24, lr=0.01, optimizer='adam', gate='none', warmup=0),
    'zeroGate': dict(depth=24, lr=0.01, optimizer='adam', gate='zero', warmup=0),
    'sgd': dict(depth=24, lr=0.1, optimizer='sgd', gate='none', warmup=0),
    # the figure's default settings (no preset button: its opening frame, and Reset)
    'default': dict(depth=24, lr=0.06, optimizer='sgd', gate='none', warmup=0),
}


def presets():
    x, labels = spirals(128, 1.0, 0.05, 1)
    x = f32(x).astype(np.float64)
    out = {'points': 128, 'width': 16, 'seed': 1, 'steps': 300, 'presets': {}}
    for name, pr in PRESETS.items():
        runs = {}
        for placement in ['none', 'post', 'pre', 'pre_final']:
            cfg = dict(L=pr['depth'], W=16, placement=placement, normk='layer_norm', gate=pr['gate'])
            p = f32(init(pr['depth'], 16, pr['gate'], 1)).astype(np.float64)
            r = train(p, x, labels, cfg, 300, pr['optimizer'], pr['lr'], 0.9, 0.0, pr['warmup'])
            runs[placement] = {'first_loss': r[2][0] if r[2] else None, 'final_loss': r[2][-1] if r[2] else None,
                               'steps': len(r[2]), 'diverged': r[6] == 1, 'accuracy': r[3]}
            print(name, placement, runs[placement], file=sys.stderr)
        out['presets'][name] = {'settings': pr, 'runs': runs}
    with open(os.path.join(HERE, '..', 'tests', 'conformance', 'training-presets.json'), 'w') as fh:
        json.dump(out, fh, indent=1)


if __name__ == '__main__':
    print('torch', torch.__version__, 'numpy', np.__version__, file=sys.stderr)
    if '--presets-only' not in sys.argv:  # the presets alone: the cases need not be written again
        cases()
    presets()
