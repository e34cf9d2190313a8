#!/usr/bin/python3
"""Generate the reference cases for the operations of docs/ops.md that have a `reference:` line.

Run with Debian's python3 (python3-torch 1.13, python3-numpy):

    /usr/bin/python3 scripts/gen_references.py

Writes tests/conformance/cases/<family>.json: arrays of conformance cases
(id, op, inputs, attrs) plus `expect` ({"outputs": ...} or {"error": [...]})
and an optional `tol`. References come from PyTorch where it has the
operation and from NumPy float64 implementing the formula of docs/ops.md where it
does not. Inputs are float32 values; references are computed in float64 from
exactly those values. Tests never run this script: its output is committed.
"""
import json
import math
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
OUT = os.path.join(os.path.dirname(__file__), '..', 'tests', 'conformance', 'cases')
rng = np.random.default_rng(20261129)

SIZES = [1, 3, 33, 1025]
EPS_GRID = [0.0, 1e-6, 1e-1, 10.0]


def f32(a):
    return np.asarray(a, dtype=np.float32)


def rand(*shape, scale=1.0, offset=0.0):
    return f32(rng.standard_normal(shape) * scale + offset)


def tensor(a):
    a = np.asarray(a)
    flat = []
    for v in a.reshape(-1).tolist():
        if isinstance(v, float) and math.isnan(v):
            flat.append('NaN')
        elif isinstance(v, float) and math.isinf(v):
            flat.append('Infinity' if v > 0 else '-Infinity')
        elif a.dtype == np.float32:
            flat.append(float(repr(np.float32(v))))
        else:
            flat.append(float('%.10g' % v) if isinstance(v, float) else v)
    return {'shape': list(a.shape), 'data': flat}


def t64(a):
    return torch.tensor(np.asarray(a, dtype=np.float64))


class Family:
    def __init__(self, name):
        self.name = name
        self.cases = []

    def ok(self, cid, op, inputs, attrs, outputs, tol=None):
        case = {'id': cid, 'op': op, 'inputs': {k: tensor(v) for k, v in inputs.items() if v is not None},
                'attrs': attrs, 'expect': {'outputs': {k: tensor(np.asarray(v, dtype=np.float64) if not
                                                              isinstance(v, list) else np.asarray(v))
                                                       for k, v in outputs.items()}}}
        if tol is not None:
            case['tol'] = tol
        self.cases.append(case)

    def bad(self, cid, op, inputs, attrs, *needles):
        self.cases.append({'id': cid, 'op': op, 'inputs': {k: tensor(v) for k, v in inputs.items()},
                           'attrs': attrs, 'expect': {'error': list(needles)}})

    def write(self):
        with open(os.path.join(OUT, self.name + '.json'), 'w') as fh:
            json.dump(self.cases, fh, separators=(',', ':'))
        print('%-16s %4d cases' % (self.name, len(self.cases)))


def np_(t):
    return t.detach().numpy()


# ---------------------------------------------------------------- vector norms
def vector_norms():
    fam = Family('vector_norms')
    for n in SIZES:
        for eps in [1e-12] + EPS_GRID[1:]:
            for off, sc in [(0, 1), (100, 1), (0, 1e-3), (0, 1e3)]:
                x = rand(n, scale=sc, offset=off)
                a = {'eps': eps}
                xt = t64(x)
                fam.ok(f'l2-n{n}-e{eps}-o{off}-s{sc}', 'l2_normalize', {'x': x}, a, {'y': np_(F.normalize(xt, p=2, dim=-1, eps=eps))})
                fam.ok(f'l1-n{n}-e{eps}-o{off}-s{sc}', 'l1_normalize', {'x': x}, a, {'y': np_(F.normalize(xt, p=1, dim=-1, eps=eps))})
                mx = np.maximum(np.abs(x.astype(np.float64)).max(), eps)
                fam.ok(f'max-n{n}-e{eps}-o{off}-s{sc}', 'max_normalize', {'x': x}, a, {'y': x / mx})
                g = f32([rng.uniform(0.5, 3)])
                fam.ok(f'scale-n{n}-e{eps}-o{off}-s{sc}', 'scale_norm', {'x': x, 'g': g}, a,
                       {'y': g[0] * np_(F.normalize(xt, p=2, dim=-1, eps=eps))})
    for shape, axis in [([4, 3], 0), ([4, 3], 1), ([2, 3, 5], 1), ([2, 3, 5], -3), ([3, 33], -1)]:
        x = rand(*shape)
        fam.ok(f'l2-axis{axis}-{shape}', 'l2_normalize', {'x': x}, {'axis': axis}, {'y': np_(F.normalize(t64(x), dim=axis))})
        fam.ok(f'l1-axis{axis}-{shape}', 'l1_normalize', {'x': x}, {'axis': axis}, {'y': np_(F.normalize(t64(x), p=1, dim=axis))})
        fam.ok(f'max-axis{axis}-{shape}', 'max_normalize', {'x': x}, {'axis': axis},
               {'y': x / np.abs(x.astype(np.float64)).max(axis=axis, keepdims=True)})
    # article: L2 of (3,4) is (0.6, 0.8); zero vector with the eps floor
    fam.ok('l2-article-3-4', 'l2_normalize', {'x': f32([3, 4])}, {}, {'y': [0.6, 0.8]})
    fam.ok('l2-zero-floor', 'l2_normalize', {'x': f32([0, 0, 0])}, {}, {'y': [0, 0, 0]})
    for op in ['l2_normalize', 'l1_normalize', 'max_normalize']:
        fam.bad(f'{op}-nan', op, {'x': f32([1, np.nan, 3])}, {}, op, 'x', 'NaN')
        fam.bad(f'{op}-inf', op, {'x': f32([1, np.inf, 3])}, {}, op, 'x', 'Infinity')
        fam.bad(f'{op}-eps-negative', op, {'x': f32([1, 2, 3])}, {'eps': -1}, op, 'eps')
        fam.bad(f'{op}-empty', op, {'x': np.zeros((0,), np.float32)}, {}, op, 'x', 'empty')
        fam.bad(f'{op}-axis', op, {'x': f32([1, 2, 3])}, {'axis': 1}, op, 'axis')
        fam.bad(f'{op}-zero-eps0', op, {'x': f32([0, 0])}, {'eps': 0}, op, 'zero')
        fam.ok(f'{op}-after-bad', op, {'x': f32([3, 4])}, {'eps': 0},
               {'y': {'l2_normalize': [0.6, 0.8], 'l1_normalize': [3 / 7, 4 / 7], 'max_normalize': [0.75, 1]}[op]})
    fam.bad('scale-norm-g-shape', 'scale_norm', {'x': f32([1, 2]), 'g': f32([1, 2])}, {}, 'scale_norm', 'g')
    fam.bad('scale-norm-g-missing', 'scale_norm', {'x': f32([1, 2])}, {}, 'scale_norm', "'g'")
    fam.write()
    return fam


# ------------------------------------------------------------ LayerNorm / RMS
def rms_ref(x, k, eps, gamma=None):
    x = x.astype(np.float64)
    axes = tuple(range(x.ndim - k, x.ndim))
    y = x / np.sqrt((x * x).mean(axis=axes, keepdims=True) + eps)
    return y * gamma if gamma is not None else y


def layer_norms():
    fam = Family('layer_norms')
    for n in SIZES:
        for eps in EPS_GRID:
            for off, sc in [(0, 1), (1000, 1e-2), (0, 1e-3), (0, 1e4)]:
                if n == 1 and eps == 0:
                    continue
                x = rand(2, n, scale=sc, offset=off)
                tag = f'n{n}-e{eps}-o{off}-s{sc}'
                fam.ok(f'ln-{tag}', 'layer_norm', {'x': x}, {'eps': eps},
                       {'y': np_(F.layer_norm(t64(x), (n,), eps=eps))})
                fam.ok(f'rms-{tag}', 'rms_norm', {'x': x}, {'eps': eps}, {'y': rms_ref(x, 1, eps)})
    # large common offset: 1000 + small differences over 1025 coordinates
    x = f32(1000 + rng.uniform(-1, 1, (3, 1025)))
    fam.ok('ln-offset-1000-d1025', 'layer_norm', {'x': x}, {'eps': 1e-5}, {'y': np_(F.layer_norm(t64(x), (1025,), eps=1e-5))})
    for shape, k in [([2, 3, 4], 2), ([2, 3, 4], 3), ([5, 6], 2), ([2, 2, 3, 3], 2)]:
        x = rand(*shape)
        ns = shape[-k:]
        g, b = rand(*ns), rand(*ns)
        fam.ok(f'ln-affine-{shape}-k{k}', 'layer_norm', {'x': x, 'gamma': g, 'beta': b}, {'normalized_ndim': k},
               {'y': np_(F.layer_norm(t64(x), ns, t64(g), t64(b), eps=1e-5))})
        fam.ok(f'ln-gamma-only-{shape}-k{k}', 'layer_norm', {'x': x, 'gamma': g}, {'normalized_ndim': k},
               {'y': np_(F.layer_norm(t64(x), ns, t64(g), None, eps=1e-5))})
        fam.ok(f'rms-gamma-{shape}-k{k}', 'rms_norm', {'x': x, 'gamma': g}, {'normalized_ndim': k},
               {'y': rms_ref(x, k, 1e-6, g.astype(np.float64))})
    # the article's worked values
    for v in [[1, 2, 3], [101, 102, 103], [10, 20, 30]]:
        fam.ok(f'ln-article-{v[0]}', 'layer_norm', {'x': f32(v)}, {'eps': 0}, {'y': [-math.sqrt(1.5), 0, math.sqrt(1.5)]})
    fam.ok('rms-article-3-4', 'rms_norm', {'x': f32([3, 4])}, {'eps': 0}, {'y': [3 / math.sqrt(12.5), 4 / math.sqrt(12.5)]})
    for op in ['layer_norm', 'rms_norm']:
        fam.bad(f'{op}-nan', op, {'x': f32([1, np.nan, 3])}, {}, op, 'x', 'NaN')
        fam.bad(f'{op}-neg-inf', op, {'x': f32([1, -np.inf, 3])}, {}, op, 'x', '-Infinity')
        fam.bad(f'{op}-eps-negative', op, {'x': f32([1, 2, 3])}, {'eps': -1e-5}, op, 'eps')
        fam.bad(f'{op}-gamma-length', op, {'x': f32([1, 2, 3]), 'gamma': f32([1, 1])}, {}, op, 'gamma', '[2]', '[3]')
        fam.bad(f'{op}-empty', op, {'x': np.zeros((2, 0), np.float32)}, {}, op, 'x', 'empty')
        fam.bad(f'{op}-unknown-attr', op, {'x': f32([1, 2, 3])}, {'epsilon': 1e-5}, op, 'epsilon')
        fam.bad(f'{op}-ndim-zero', op, {'x': f32([1, 2, 3])}, {'normalized_ndim': 0}, op, 'normalized_ndim')
        fam.bad(f'{op}-ndim-rank', op, {'x': f32([1, 2, 3])}, {'normalized_ndim': 2}, op, 'normalized_ndim')
        fam.bad(f'{op}-zero-eps0', op, {'x': f32([2, 2, 2]) if op == 'layer_norm' else f32([0, 0])}, {'eps': 0}, op, 'zero')
        fam.bad(f'{op}-unknown-input', op, {'x': f32([1, 2]), 'gama': f32([1, 1])}, {}, op, 'gama')
        fam.bad(f'{op}-eps-string', op, {'x': f32([1, 2])}, {'eps': 'small'}, op, 'eps', 'number')
        x = f32([1, 2, 3])
        fam.ok(f'{op}-after-bad', op, {'x': x}, {'eps': 0},
               {'y': np_(F.layer_norm(t64(x), (3,), eps=0)) if op == 'layer_norm' else rms_ref(x, 1, 0)})
    fam.bad('unknown-op', 'layer_nrom', {'x': f32([1, 2])}, {}, 'unknown operation', 'layer_nrom')
    fam.bad('beta-shape', 'layer_norm', {'x': rand(2, 3), 'beta': rand(2)}, {}, 'layer_norm', 'beta')
    fam.write()
    return fam


# ------------------------------------------------------------------ BatchNorm
def bn_torch(x, g, b, rm, rv, training, momentum, eps):
    rm_t = t64(rm) if rm is not None else None
    rv_t = t64(rv) if rv is not None else None
    y = F.batch_norm(t64(x), rm_t, rv_t, t64(g) if g is not None else None, t64(b) if b is not None else None,
                     training=training, momentum=momentum, eps=eps)
    return np_(y), (np_(rm_t) if rm_t is not None else None), (np_(rv_t) if rv_t is not None else None)


def in_stats(x):
    x = x.astype(np.float64)
    axes = tuple(range(2, x.ndim))
    return x.mean(axis=axes, keepdims=True), x.var(axis=axes, keepdims=True)


def batch_norms():
    fam = Family('batch_norms')
    for shape in [[4, 3], [2, 3, 5], [2, 3, 4, 4], [33, 1], [5, 2, 33]]:
        C = shape[1]
        for momentum in [0.1, 0.5, 0.0, 1.0]:
            for eps in [1e-5, 1e-1]:
                x = rand(*shape, scale=2, offset=1)
                g, b = rand(C), rand(C)
                rm, rv = rand(C), f32(rng.uniform(0.5, 2, C))
                y, nrm, nrv = bn_torch(x, g, b, rm, rv, True, momentum, eps)
                tag = f'{shape}-m{momentum}-e{eps}'
                fam.ok(f'bn-train-{tag}', 'batch_norm', {'x': x, 'gamma': g, 'beta': b, 'running_mean': rm, 'running_var': rv},
                       {'training': True, 'momentum': momentum, 'eps': eps},
                       {'y': y, 'running_mean': nrm, 'running_var': nrv})
                y, _, _ = bn_torch(x, g, b, rm, rv, False, momentum, eps)
                fam.ok(f'bn-eval-{tag}', 'batch_norm', {'x': x, 'gamma': g, 'beta': b, 'running_mean': rm, 'running_var': rv},
                       {'training': False, 'momentum': momentum, 'eps': eps},
                       {'y': y, 'running_mean': rm, 'running_var': rv})
        x = rand(*shape)
        y, _, _ = bn_torch(x, None, None, None, None, True, 0.1, 1e-5)
        fam.ok(f'bn-train-nostats-{shape}', 'batch_norm', {'x': x}, {}, {'y': y})
        if len(shape) >= 3:
            g, b = rand(C), rand(C)
            fam.ok(f'in-{shape}', 'instance_norm', {'x': x, 'gamma': g, 'beta': b}, {},
                   {'y': np_(F.instance_norm(t64(x), weight=t64(g), bias=t64(b), eps=1e-5))})
            fam.ok(f'in-noaffine-{shape}-e0.1', 'instance_norm', {'x': x}, {'eps': 0.1},
                   {'y': np_(F.instance_norm(t64(x), eps=0.1))})
    # GroupNorm: G = 1 (LayerNorm over C and space), G = C (InstanceNorm), between
    for shape in [[2, 6, 5], [3, 4, 2, 3], [2, 8], [1, 6, 33]]:
        C = shape[1]
        for G in sorted({1, 2, C}):
            if C % G:
                continue
            for eps in [1e-5, 1e-1]:
                x = rand(*shape, scale=3, offset=-2)
                g, b = rand(C), rand(C)
                fam.ok(f'gn-{shape}-G{G}-e{eps}', 'group_norm', {'x': x, 'gamma': g, 'beta': b}, {'num_groups': G, 'eps': eps},
                       {'y': np_(F.group_norm(t64(x), G, t64(g), t64(b), eps=eps))})
        fam.ok(f'gn-noaffine-{shape}', 'group_norm', {'x': x}, {'num_groups': 1},
               {'y': np_(F.group_norm(t64(x), 1, eps=1e-5))})
    # Ghost BatchNorm: BN (training) per chunk of virtual_batch_size examples
    for shape, v in [([8, 3], 4), ([6, 2, 5], 2), ([6, 2, 5], 3), ([4, 3, 2, 2], 4)]:
        x = rand(*shape)
        g, b = rand(shape[1]), rand(shape[1])
        y = np.concatenate([bn_torch(x[i:i + v], g, b, None, None, True, 0.1, 1e-5)[0] for i in range(0, shape[0], v)])
        fam.ok(f'ghost-{shape}-v{v}', 'ghost_batch_norm', {'x': x, 'gamma': g, 'beta': b}, {'virtual_batch_size': v}, {'y': y})
    # Batch Renormalization (formula of docs/ops.md)
    for shape in [[6, 3], [4, 2, 5]]:
        for r_max, d_max in [(3, 5), (1, 0), (1.5, 0.2)]:
            C = shape[1]
            x = rand(*shape, scale=2, offset=1)
            rm, rv = rand(C), f32(rng.uniform(0.2, 3, C))
            g, b = rand(C), rand(C)
            eps = 1e-5
            axes = tuple(i for i in range(x.ndim) if i != 1)
            xd = x.astype(np.float64)
            mu, var = xd.mean(axis=axes), xd.var(axis=axes)
            sb, s = np.sqrt(var + eps), np.sqrt(rv + eps)
            r = np.clip(sb / s, 1 / r_max, r_max)
            d = np.clip((mu - rm) / s, -d_max, d_max)
            view = [1, C] + [1] * (x.ndim - 2)
            y = ((xd - mu.reshape(view)) / sb.reshape(view)) * r.reshape(view) + d.reshape(view)
            y = y * g.reshape(view) + b.reshape(view)
            fam.ok(f'renorm-{shape}-r{r_max}-d{d_max}', 'batch_renorm',
                   {'x': x, 'running_mean': rm, 'running_var': rv, 'gamma': g, 'beta': b},
                   {'r_max': r_max, 'd_max': d_max}, {'y': y})
            y_eval, _, _ = bn_torch(x, g, b, rm, rv, False, 0.1, eps)
            fam.ok(f'renorm-eval-{shape}-r{r_max}', 'batch_renorm',
                   {'x': x, 'running_mean': rm, 'running_var': rv, 'gamma': g, 'beta': b},
                   {'r_max': r_max, 'd_max': d_max, 'training': False}, {'y': y_eval})
    # Switchable Normalization (formula of docs/ops.md)
    for shape in [[2, 3, 4, 4], [3, 2, 1, 5]]:
        for ml, vl in [([0, 0, 0], [0, 0, 0]), ([2, -1, 0.5], [-1, 3, 0]), ([10, 0, 0], [0, 0, 10])]:
            x = rand(*shape)
            C = shape[1]
            g, b = rand(C), rand(C)
            xd = x.astype(np.float64)
            wm, wv = np.exp(ml) / np.exp(ml).sum(), np.exp(vl) / np.exp(vl).sum()
            m_in, v_in = xd.mean(axis=(2, 3), keepdims=True), xd.var(axis=(2, 3), keepdims=True)
            m_ln, v_ln = xd.mean(axis=(1, 2, 3), keepdims=True), xd.var(axis=(1, 2, 3), keepdims=True)
            m_bn, v_bn = xd.mean(axis=(0, 2, 3), keepdims=True), xd.var(axis=(0, 2, 3), keepdims=True)
            mu = wm[0] * m_in + wm[1] * m_ln + wm[2] * m_bn
            var = wv[0] * v_in + wv[1] * v_ln + wv[2] * v_bn
            y = (xd - mu) / np.sqrt(var + 1e-5) * g.reshape(1, C, 1, 1) + b.reshape(1, C, 1, 1)
            fam.ok(f'switch-{shape}-{ml}-{vl}', 'switchable_norm',
                   {'x': x, 'gamma': g, 'beta': b, 'mean_logits': f32(ml), 'var_logits': f32(vl)}, {}, {'y': y})
    # Local Response Normalization
    for shape in [[2, 5, 4], [1, 7, 3, 3], [2, 3, 2]]:
        for size, alpha, beta, k in [(3, 1e-4, 0.75, 1), (2, 0.5, 0.5, 2), (5, 1, 1, 1)]:
            x = rand(*shape, scale=3)
            fam.ok(f'lrn-{shape}-s{size}-a{alpha}', 'local_response_norm', {'x': x},
                   {'size': size, 'alpha': alpha, 'beta': beta, 'k': k},
                   {'y': np_(F.local_response_norm(t64(x), size, alpha, beta, k))})
    # Filter Response Normalization (formula of docs/ops.md)
    for shape in [[2, 3, 4, 4], [1, 2, 1, 7]]:
        for eps in [1e-6, 1e-1]:
            x = rand(*shape)
            C = shape[1]
            g, b, tau = rand(C), rand(C), rand(C)
            xd = x.astype(np.float64)
            nu2 = (xd * xd).mean(axis=(2, 3), keepdims=True)
            v = [1, C, 1, 1]
            y = np.maximum(g.reshape(v) * xd / np.sqrt(nu2 + eps) + b.reshape(v), tau.reshape(v))
            fam.ok(f'frn-{shape}-e{eps}', 'filter_response_norm', {'x': x, 'gamma': g, 'beta': b, 'tau': tau}, {'eps': eps}, {'y': y})
    # bad input
    x = rand(4, 3)
    fam.bad('bn-eval-no-stats', 'batch_norm', {'x': x}, {'training': False}, 'batch_norm', 'running_mean')
    fam.bad('bn-one-value', 'batch_norm', {'x': rand(1, 3)}, {}, 'batch_norm', 'more than one value')
    fam.bad('bn-momentum', 'batch_norm', {'x': x}, {'momentum': 1.5}, 'batch_norm', 'momentum')
    fam.bad('bn-gamma-shape', 'batch_norm', {'x': x, 'gamma': rand(4)}, {}, 'batch_norm', 'gamma', '[3]')
    fam.bad('bn-rank', 'batch_norm', {'x': rand(3)}, {}, 'batch_norm', 'x', 'rank')
    fam.bad('bn-running-half', 'batch_norm', {'x': x, 'running_mean': rand(3)}, {}, 'batch_norm', 'running_var')
    fam.bad('bn-running-var-negative', 'batch_norm', {'x': x, 'running_mean': rand(3), 'running_var': f32([1, -1, 1])},
            {'training': False}, 'batch_norm', 'running_var', 'negative')
    fam.bad('bn-nan', 'batch_norm', {'x': f32([[1, 2], [np.nan, 3]])}, {}, 'batch_norm', 'x', 'NaN')
    fam.bad('bn-training-type', 'batch_norm', {'x': x}, {'training': 1}, 'batch_norm', 'training', 'boolean')
    fam.ok('bn-after-bad', 'batch_norm', {'x': f32([[1], [3]])}, {'eps': 0}, {'y': [[-1], [1]]})
    fam.bad('gn-divide', 'group_norm', {'x': rand(2, 6, 3)}, {'num_groups': 4}, 'group_norm', 'num_groups (4)', 'C (6)')
    fam.bad('gn-zero-groups', 'group_norm', {'x': rand(2, 6, 3)}, {'num_groups': 0}, 'group_norm', 'num_groups')
    fam.bad('gn-missing-groups', 'group_norm', {'x': rand(2, 6, 3)}, {}, 'group_norm', 'num_groups')
    fam.bad('gn-fraction-groups', 'group_norm', {'x': rand(2, 6, 3)}, {'num_groups': 1.5}, 'group_norm', 'num_groups', 'integer')
    fam.bad('in-no-spatial', 'instance_norm', {'x': rand(2, 3)}, {}, 'instance_norm', 'x')
    fam.bad('in-one-spatial', 'instance_norm', {'x': rand(2, 3, 1)}, {}, 'instance_norm', 'spatial')
    fam.bad('ghost-divide', 'ghost_batch_norm', {'x': rand(6, 2)}, {'virtual_batch_size': 4}, 'ghost_batch_norm', 'virtual_batch_size')
    fam.bad('renorm-missing-running', 'batch_renorm', {'x': rand(4, 2)}, {}, 'batch_renorm', 'running_mean')
    fam.bad('renorm-rmax', 'batch_renorm', {'x': rand(4, 2), 'running_mean': rand(2), 'running_var': f32([1, 1])},
            {'r_max': 0.5}, 'batch_renorm', 'r_max')
    fam.bad('switch-logits', 'switchable_norm', {'x': rand(2, 2, 2, 2), 'mean_logits': f32([0, 0]), 'var_logits': f32([0, 0, 0])},
            {}, 'switchable_norm', 'mean_logits')
    fam.bad('switch-rank', 'switchable_norm', {'x': rand(2, 2, 2), 'mean_logits': f32([0, 0, 0]), 'var_logits': f32([0, 0, 0])},
            {}, 'switchable_norm', 'x')
    fam.bad('lrn-size', 'local_response_norm', {'x': rand(1, 3, 2)}, {'size': 0}, 'local_response_norm', 'size')
    fam.bad('frn-tau', 'filter_response_norm', {'x': rand(1, 2, 2, 2), 'gamma': rand(2), 'beta': rand(2), 'tau': rand(3)},
            {}, 'filter_response_norm', 'tau')
    fam.ok('gn-after-bad', 'group_norm', {'x': f32([[[1, 3]]])}, {'num_groups': 1, 'eps': 0}, {'y': [[[-1, 1]]]})
    fam.write()
    return fam


# --------------------------------------------------------------- conditioning
def ln0(x, eps):
    x = x.astype(np.float64)
    return (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + eps)


def conditioning():
    fam = Family('conditioning')
    for B, T, d in [(1, 1, 2), (2, 3, 4), (3, 5, 33)]:
        for eps in [1e-5, 1e-1]:
            if d == 1:
                continue
            x = rand(B, T, d, scale=2, offset=1)
            sc, sh = rand(B, d), rand(B, d)
            fam.ok(f'adaln-{B}x{T}x{d}-e{eps}', 'ada_layer_norm', {'x': x, 'scale': sc, 'shift': sh}, {'eps': eps},
                   {'y': (1 + sc[:, None, :].astype(np.float64)) * np_(F.layer_norm(t64(x), (d,), eps=eps)) + sh[:, None, :]})
            xd = x.astype(np.float64)
            rms = xd / np.sqrt((xd * xd).mean(-1, keepdims=True) + eps)
            fam.ok(f'adarms-{B}x{T}x{d}-e{eps}', 'adaptive_rms_norm', {'x': x, 'scale': sc, 'shift': sh}, {'eps': eps},
                   {'y': (1 + sc[:, None, :].astype(np.float64)) * rms + sh[:, None, :]})
            fam.ok(f'adarms-noshift-{B}x{T}x{d}-e{eps}', 'adaptive_rms_norm', {'x': x, 'scale': sc}, {'eps': eps},
                   {'y': (1 + sc[:, None, :].astype(np.float64)) * rms})
        u = rand(B, T, d)
        for gate in [rand(B, d), rand(d), rand(1), np.zeros((B, d), np.float32)]:
            gv = gate[:, None, :] if gate.ndim == 2 else gate
            fam.ok(f'gated-{B}x{T}x{d}-{list(gate.shape)}', 'gated_residual', {'x': x, 'update': u, 'gate': gate}, {},
                   {'h': x.astype(np.float64) + gv.astype(np.float64) * u})
    # article: features (-1, 1); scale (1,0), shift (0,3) -> (-2, 4)... as (1+s)*x+b with s=(1,0): (-2, 1)+(0,3)
    x = f32([[[-1, 1]]])
    fam.ok('adaln-article-identity', 'ada_layer_norm', {'x': x, 'scale': f32([[0, 0]]), 'shift': f32([[0, 0]])}, {'eps': 0},
           {'y': [[[-1, 1]]]})
    fam.ok('adaln-article-modulated', 'ada_layer_norm', {'x': x, 'scale': f32([[1, 0]]), 'shift': f32([[0, 3]])}, {'eps': 0},
           {'y': [[[-2, 4]]]})
    for shape in [[2, 3], [2, 3, 5], [1, 2, 3, 3]]:
        x = rand(*shape)
        N, C = shape[:2]
        g, b = rand(N, C), rand(N, C)
        view = [N, C] + [1] * (len(shape) - 2)
        fam.ok(f'film-{shape}', 'film', {'x': x, 'gamma': g, 'beta': b}, {},
               {'y': g.reshape(view).astype(np.float64) * x + b.reshape(view)})
        for training in [True, False]:
            rm, rv = rand(C), f32(rng.uniform(0.5, 2, C))
            y, nrm, nrv = bn_torch(x, None, None, rm, rv, training, 0.1, 1e-5)
            fam.ok(f'cbn-{shape}-t{training}', 'conditional_batch_norm',
                   {'x': x, 'gamma': g, 'beta': b, 'running_mean': rm, 'running_var': rv}, {'training': training},
                   {'y': g.reshape(view).astype(np.float64) * y + b.reshape(view), 'running_mean': nrm, 'running_var': nrv})
    for xs, ss in [([2, 3, 5], [2, 3, 5]), ([1, 2, 4, 4], [1, 2, 3, 3]), ([2, 2, 7], [2, 2, 2])]:
        for eps in [1e-5, 1e-1]:
            x, s = rand(*xs, scale=2), rand(*ss, scale=3, offset=1)
            mx, vx = in_stats(x)
            ms, vs = in_stats(s)
            fam.ok(f'adain-{xs}-{ss}-e{eps}', 'adain', {'x': x, 'style': s}, {'eps': eps},
                   {'y': np.sqrt(vs) * (x - mx) / np.sqrt(vx + eps) + ms})
    for shape in [[2, 3, 4, 4], [3, 1, 2, 2]]:
        x = rand(*shape)
        gm, bm = rand(*shape), rand(*shape)
        y, _, _ = bn_torch(x, None, None, None, None, True, 0.1, 1e-5)
        fam.ok(f'spade-{shape}', 'spade', {'x': x, 'gamma_map': gm, 'beta_map': bm}, {},
               {'y': y * (1 + gm.astype(np.float64)) + bm})
    fam.bad('adaln-scale-shape', 'ada_layer_norm', {'x': rand(2, 3, 4), 'scale': rand(2, 3), 'shift': rand(2, 4)}, {},
            'ada_layer_norm', 'scale', '[2, 4]')
    fam.bad('adaln-rank', 'ada_layer_norm', {'x': rand(3, 4), 'scale': rand(3, 4), 'shift': rand(3, 4)}, {}, 'ada_layer_norm', 'x')
    fam.bad('adaln-missing-shift', 'ada_layer_norm', {'x': rand(2, 3, 4), 'scale': rand(2, 4)}, {}, 'ada_layer_norm', 'shift')
    fam.bad('gated-gate-shape', 'gated_residual', {'x': rand(2, 3, 4), 'update': rand(2, 3, 4), 'gate': rand(3)}, {},
            'gated_residual', 'gate')
    fam.bad('gated-update-shape', 'gated_residual', {'x': rand(2, 3, 4), 'update': rand(2, 3, 5), 'gate': rand(1)}, {},
            'gated_residual', 'update')
    fam.bad('film-gamma-shape', 'film', {'x': rand(2, 3), 'gamma': rand(3), 'beta': rand(2, 3)}, {}, 'film', 'gamma')
    fam.bad('adain-style', 'adain', {'x': rand(2, 3, 4), 'style': rand(2, 2, 4)}, {}, 'adain', 'style')
    fam.bad('spade-map', 'spade', {'x': rand(2, 3, 2, 2), 'gamma_map': rand(2, 3, 2, 1), 'beta_map': rand(2, 3, 2, 2)}, {},
            'spade', 'gamma_map')
    fam.bad('cbn-eval', 'conditional_batch_norm', {'x': rand(2, 3), 'gamma': rand(2, 3), 'beta': rand(2, 3)},
            {'training': False}, 'conditional_batch_norm', 'running_mean')
    fam.write()
    return fam


# ---------------------------------------------------------------------- weights
def weights():
    fam = Family('weights')
    for shape in [[3], [4, 3], [2, 3, 5], [5, 1025]]:
        v = rand(*shape)
        g = rand(shape[0])
        fam.ok(f'wn-{shape}', 'weight_norm', {'v': v, 'g': g}, {}, {'w': np_(torch._weight_norm(t64(v), t64(g), 0))})
        for eps in [1e-5, 1e-1]:
            if shape == [3]:
                continue
            wd = v.astype(np.float64).reshape(shape[0], -1)
            y = (wd - wd.mean(1, keepdims=True)) / np.sqrt(wd.var(1, keepdims=True) + eps)
            fam.ok(f'ws-{shape}-e{eps}', 'weight_standardize', {'w': v}, {'eps': eps}, {'y': y.reshape(shape)})
    for m, n in [(2, 2), (3, 5), (6, 4), (1, 3)]:
        for iters in [1, 3, 50]:
            W = rand(m, n)
            u0 = rand(m)
            for use_u0 in [False, True]:
                Wd = W.astype(np.float64)
                u = u0.astype(np.float64) if use_u0 else np.ones(m) / math.sqrt(m)
                for _ in range(iters):
                    v = Wd.T @ u
                    v = v / max(np.linalg.norm(v), 1e-12)
                    u = Wd @ v
                    u = u / max(np.linalg.norm(u), 1e-12)
                sigma = u @ Wd @ v
                inputs = {'W': W, 'u0': u0 if use_u0 else None}
                fam.ok(f'sn-{m}x{n}-it{iters}-u0{use_u0}', 'spectral_norm', inputs, {'n_power_iterations': iters},
                       {'w': Wd / sigma, 'sigma': [sigma], 'u': u})
    # the article's matrix diag(3, 1): sigma 3 exactly after enough steps
    W = f32([[3, 0], [0, 1]])
    fam.ok('sn-article-diag31', 'spectral_norm', {'W': W}, {'n_power_iterations': 30},
           {'w': [[1, 0], [0, 1 / 3]], 'sigma': [3.0], 'u': [1, 0]}, tol=1e-4)
    fam.bad('wn-g-shape', 'weight_norm', {'v': rand(3, 2), 'g': rand(2)}, {}, 'weight_norm', 'g')
    fam.bad('wn-zero-row', 'weight_norm', {'v': f32([[0, 0], [1, 2]]), 'g': f32([1, 1])}, {}, 'weight_norm', 'zero')
    fam.bad('sn-rank', 'spectral_norm', {'W': rand(3)}, {}, 'spectral_norm', 'W')
    fam.bad('sn-u0', 'spectral_norm', {'W': rand(3, 2), 'u0': rand(2)}, {}, 'spectral_norm', 'u0')
    fam.bad('sn-zero', 'spectral_norm', {'W': np.zeros((2, 2), np.float32)}, {}, 'spectral_norm', 'zero')
    fam.bad('sn-iters', 'spectral_norm', {'W': rand(2, 2)}, {'n_power_iterations': 0}, 'spectral_norm', 'n_power_iterations')
    fam.bad('ws-nan', 'weight_standardize', {'w': f32([[1, np.nan]])}, {}, 'weight_standardize', 'w', 'NaN')
    fam.write()
    return fam


# -------------------------------------------------------------------- attention
def sdpa_ref(q, k, v, mask, causal, scale, qk_g=None):
    q, k, v = (a.astype(np.float64) for a in (q, k, v))
    if qk_g is not None:
        q = np_(F.normalize(t64(q), dim=-1))
        k = np_(F.normalize(t64(k), dim=-1))
        scale = qk_g
    s = scale * (q @ np.swapaxes(k, -1, -2))
    Tq, Tk = s.shape[-2:]
    vis = np.ones((Tq, Tk), bool)
    if causal:
        vis &= np.tril(np.ones((Tq, Tk), bool))
    if mask is not None:
        vis &= mask.astype(bool)
    s = np.where(vis, s, -np.inf)
    w = np_(torch.softmax(t64(s), dim=-1))
    return w @ v, w


def attention():
    fam = Family('attention')
    for shape in [[3], [2, 3], [4, 33], [2, 1025], [3, 4, 5]]:
        for axis in [-1, 0]:
            x = rand(*shape, scale=5)
            fam.ok(f'softmax-{shape}-a{axis}', 'softmax', {'x': x}, {'axis': axis}, {'y': np_(torch.softmax(t64(x), dim=axis))})
    x = f32([1000, 1001, 999])
    fam.ok('softmax-large-offset', 'softmax', {'x': x}, {}, {'y': np_(torch.softmax(t64(x), dim=0))})
    fam.ok('softmax-article-1-0', 'softmax', {'x': f32([1, 0])}, {}, {'y': np_(torch.softmax(t64([1, 0]), 0))})
    fam.ok('softmax-article-10-0', 'softmax', {'x': f32([10, 0])}, {}, {'y': np_(torch.softmax(t64([10, 0]), 0))})
    for lead, Tq, Tk, dk, dv in [([], 3, 3, 4, 2), ([2], 4, 5, 8, 3), ([2, 3], 5, 5, 16, 16), ([1], 1, 7, 64, 4)]:
        q, k, v = rand(*lead, Tq, dk), rand(*lead, Tk, dk), rand(*lead, Tk, dv)
        for causal in [False, True]:
            if causal and Tq > Tk:
                continue
            out, w = sdpa_ref(q, k, v, None, causal, 1 / math.sqrt(dk))
            fam.ok(f'sdpa-{lead}-{Tq}x{Tk}x{dk}-c{causal}', 'scaled_dot_product_attention', {'q': q, 'k': k, 'v': v},
                   {'causal': causal}, {'out': out, 'weights': w})
            g = 4.0
            out, w = sdpa_ref(q, k, v, None, causal, None, qk_g=g)
            fam.ok(f'qknorm-{lead}-{Tq}x{Tk}x{dk}-c{causal}', 'qk_norm_attention', {'q': q, 'k': k, 'v': v},
                   {'g': g, 'causal': causal}, {'out': out, 'weights': w})
        mask = f32(rng.integers(0, 2, (Tq, Tk)))
        mask[:, 0] = 1
        out, w = sdpa_ref(q, k, v, mask, False, 0.5)
        fam.ok(f'sdpa-mask-{lead}-{Tq}x{Tk}', 'scaled_dot_product_attention', {'q': q, 'k': k, 'v': v, 'mask': mask},
               {'scale': 0.5}, {'out': out, 'weights': w})
    # residual blocks
    for shape in [[3], [2, 3], [2, 4, 8]]:
        d = shape[-1]
        x = rand(*shape, scale=3)
        W, b = rand(d, d), rand(d)
        for norm in ['layer_norm', 'rms_norm']:
            for placement in ['pre', 'post']:
                N = (lambda z: ln0(z, 1e-5)) if norm == 'layer_norm' else (lambda z: rms_ref(z, 1, 1e-5))
                Fz = lambda z: z.astype(np.float64) @ W.T.astype(np.float64) + b
                y = x + Fz(N(x)) if placement == 'pre' else N(x.astype(np.float64) + Fz(x))
                fam.ok(f'block-{shape}-{norm}-{placement}', 'residual_block', {'x': x, 'W': W, 'b': b},
                       {'placement': placement, 'norm': norm}, {'y': y})
    # article: x_A = (1,2,3), x_B = 10 x_A, F(z) = u = (1,0,0) when W = 0, b = u
    for xa in [[1, 2, 3], [10, 20, 30]]:
        x = f32(xa)
        W, b = np.zeros((3, 3), np.float32), f32([1, 0, 0])
        fam.ok(f'block-article-pre-{xa[0]}', 'residual_block', {'x': x, 'W': W, 'b': b}, {'placement': 'pre'},
               {'y': x.astype(np.float64) + [1, 0, 0]})
    fam.bad('softmax-axis', 'softmax', {'x': rand(3)}, {'axis': 2}, 'softmax', 'axis')
    fam.bad('softmax-nan', 'softmax', {'x': f32([0, np.nan])}, {}, 'softmax', 'NaN')
    fam.bad('sdpa-dk', 'scaled_dot_product_attention', {'q': rand(2, 4), 'k': rand(3, 5), 'v': rand(3, 2)}, {},
            'scaled_dot_product_attention', 'k', 'dk')
    fam.bad('sdpa-v', 'scaled_dot_product_attention', {'q': rand(2, 4), 'k': rand(3, 4), 'v': rand(2, 2)}, {},
            'scaled_dot_product_attention', 'v')
    fam.bad('sdpa-mask-row', 'scaled_dot_product_attention',
            {'q': rand(2, 4), 'k': rand(2, 4), 'v': rand(2, 2), 'mask': f32([[1, 1], [0, 0]])}, {},
            'scaled_dot_product_attention', 'no visible key')
    fam.bad('sdpa-mask-value', 'scaled_dot_product_attention',
            {'q': rand(2, 4), 'k': rand(2, 4), 'v': rand(2, 2), 'mask': f32([[1, 0.5], [1, 1]])}, {},
            'scaled_dot_product_attention', 'mask')
    fam.bad('sdpa-lead', 'scaled_dot_product_attention', {'q': rand(2, 2, 4), 'k': rand(3, 2, 4), 'v': rand(3, 2, 2)}, {},
            'scaled_dot_product_attention', 'k')
    fam.bad('qk-missing-g', 'qk_norm_attention', {'q': rand(2, 4), 'k': rand(2, 4), 'v': rand(2, 2)}, {},
            'qk_norm_attention', 'g')
    fam.bad('block-placement', 'residual_block', {'x': rand(3), 'W': rand(3, 3)}, {'placement': 'middle'},
            'residual_block', 'placement')
    fam.bad('block-W', 'residual_block', {'x': rand(3), 'W': rand(3, 2)}, {}, 'residual_block', 'W')
    fam.write()
    return fam


# -------------------------------------------------------------------- gradients
def gradients():
    fam = Family('gradients')
    for d in [2, 3, 5, 33]:
        for sc in [1, 1e-2, 1e2]:
            x = rand(d, scale=sc)
            J = torch.autograd.functional.jacobian(lambda z: F.normalize(z, dim=0, eps=1e-12), t64(x))
            fam.ok(f'l2jac-d{d}-s{sc}', 'l2_normalize_jacobian', {'x': x}, {}, {'J': np_(J)})
            for eps in [1e-5, 1e-1]:
                J = torch.autograd.functional.jacobian(lambda z: F.layer_norm(z, (d,), eps=eps), t64(x))
                fam.ok(f'lnjac-d{d}-s{sc}-e{eps}', 'layer_norm_jacobian', {'x': x}, {'eps': eps}, {'J': np_(J)})
    x = f32([1e-7, 0])
    fam.ok('l2jac-floor', 'l2_normalize_jacobian', {'x': x}, {'eps': 1e-3},
           {'J': np_(torch.autograd.functional.jacobian(lambda z: F.normalize(z, dim=0, eps=1e-3), t64(x)))})
    for shape in [[5], [3, 4], [2, 33]]:
        for max_norm, p in [(1.0, 2.0), (100.0, 2.0), (0.5, 1.0), (2.0, 3.0)]:
            g = rand(*shape, scale=2)
            prm = torch.nn.Parameter(torch.zeros(shape))
            prm.grad = t64(g)
            total = torch.nn.utils.clip_grad_norm_([prm], max_norm, norm_type=p)
            fam.ok(f'clip-{shape}-m{max_norm}-p{p}', 'clip_grad_norm', {'g': g}, {'max_norm': max_norm, 'norm_type': p},
                   {'y': np_(prm.grad), 'total_norm': [float(total)]})
    fam.bad('l2jac-rank', 'l2_normalize_jacobian', {'x': rand(2, 2)}, {}, 'l2_normalize_jacobian', 'x')
    fam.bad('l2jac-zero', 'l2_normalize_jacobian', {'x': f32([0, 0])}, {'eps': 0}, 'l2_normalize_jacobian', 'zero')
    fam.bad('lnjac-const', 'layer_norm_jacobian', {'x': f32([1, 1])}, {'eps': 0}, 'layer_norm_jacobian', 'zero')
    fam.bad('clip-missing', 'clip_grad_norm', {'g': rand(3)}, {}, 'clip_grad_norm', 'max_norm')
    fam.bad('clip-p', 'clip_grad_norm', {'g': rand(3)}, {'max_norm': 1, 'norm_type': 0}, 'clip_grad_norm', 'norm_type')
    fam.write()
    return fam


# ---------------------------------------------------------------- preprocessing
def preprocessing():
    fam = Family('preprocessing')
    for n, f in [(5, 1), (8, 3), (33, 2), (1025, 4)]:
        x = f32(rng.standard_normal((n, f)) * rng.uniform(0.1, 10, f) + rng.uniform(-50, 50, f))
        xd = x.astype(np.float64)
        fam.ok(f'zfit-{n}x{f}', 'z_score_fit', {'x': x}, {}, {'mean': xd.mean(0), 'std': xd.std(0)})
        mean, std = f32(xd.mean(0)), f32(xd.std(0))
        fam.ok(f'zapply-{n}x{f}', 'z_score_apply', {'x': x, 'mean': mean, 'std': std}, {},
               {'y': (xd - mean) / std.astype(np.float64)})
        fam.ok(f'mmfit-{n}x{f}', 'min_max_fit', {'x': x}, {}, {'min': xd.min(0), 'max': xd.max(0)})
        for lo, hi in [(0, 1), (-1, 1)]:
            fam.ok(f'mmapply-{n}x{f}-{lo}', 'min_max_apply', {'x': x, 'min': f32(xd.min(0)), 'max': f32(xd.max(0))},
                   {'low': lo, 'high': hi},
                   {'y': lo + (xd - x.min(0)) * (hi - lo) / (x.max(0).astype(np.float64) - x.min(0))})
        for ql, qh in [(25, 75), (10, 90), (0, 100)]:
            med = np.percentile(xd, 50, axis=0)
            iqr = np.percentile(xd, qh, axis=0) - np.percentile(xd, ql, axis=0)
            fam.ok(f'rfit-{n}x{f}-{ql}', 'robust_fit', {'x': x}, {'q_low': ql, 'q_high': qh}, {'median': med, 'iqr': iqr})
        med, iqr = f32(np.percentile(xd, 50, axis=0)), f32(np.percentile(xd, 75, axis=0) - np.percentile(xd, 25, axis=0))
        fam.ok(f'rapply-{n}x{f}', 'robust_apply', {'x': x, 'median': med, 'iqr': iqr}, {}, {'y': (xd - med) / iqr.astype(np.float64)})
    # constant features: std, range and iqr of 0 are reported as 1
    x = f32([[1, 5], [2, 5], [3, 5]])
    fam.ok('zfit-constant', 'z_score_fit', {'x': x}, {}, {'mean': [2, 5], 'std': [math.sqrt(2 / 3), 1]})
    fam.ok('rfit-constant', 'robust_fit', {'x': x}, {}, {'median': [2, 5], 'iqr': [1, 1]})
    fam.ok('mmapply-constant', 'min_max_apply', {'x': x, 'min': f32([1, 5]), 'max': f32([3, 5])}, {},
           {'y': [[0, 0], [0.5, 0], [1, 0]]})
    for n, f, corr in [(200, 2, 0.9), (50, 3, 0.5), (1025, 2, -0.7), (40, 5, 0.3)]:
        base = rng.standard_normal((n, f))
        mix = np.eye(f) + corr * np.ones((f, f))
        x = f32(base @ mix * 2 + 3)
        for eps in [1e-5, 1e-1]:
            xd = x.astype(np.float64)
            mean = xd.mean(0)
            cov = (xd - mean).T @ (xd - mean) / n + eps * np.eye(f)
            lam, V = np.linalg.eigh(cov)
            M = V @ np.diag(lam ** -0.5) @ V.T
            fam.ok(f'whiten-{n}x{f}-c{corr}-e{eps}', 'whiten', {'x': x}, {'eps': eps},
                   {'z': (xd - mean) @ M.T, 'mean': mean, 'matrix': M}, tol=2e-4)
    fam.bad('z-rank', 'z_score_fit', {'x': rand(3)}, {}, 'z_score_fit', 'x')
    fam.bad('zapply-std-zero', 'z_score_apply', {'x': rand(3, 2), 'mean': rand(2), 'std': f32([1, 0])}, {},
            'z_score_apply', 'std')
    fam.bad('zapply-mean-shape', 'z_score_apply', {'x': rand(3, 2), 'mean': rand(3), 'std': f32([1, 1])}, {},
            'z_score_apply', 'mean')
    fam.bad('mm-order', 'min_max_apply', {'x': rand(3, 1), 'min': f32([2]), 'max': f32([1])}, {}, 'min_max_apply', 'max')
    fam.bad('robust-q', 'robust_fit', {'x': rand(3, 1)}, {'q_low': 80, 'q_high': 20}, 'robust_fit', 'q_low')
    fam.bad('whiten-singular', 'whiten', {'x': f32([[1, 2], [2, 4], [3, 6]])}, {'eps': 0}, 'whiten', 'singular')
    fam.write()
    return fam


# ---------------------------------------------------------------------- shapes
def group_members(method, shape, index, G=None):
    B, T, D = shape
    b, t, d = index
    out = []
    for bb in range(B):
        for tt in range(T):
            for dd in range(D):
                same = {
                    'batch_norm': dd == d,
                    'layer_norm': bb == b and tt == t,
                    'rms_norm': bb == b and tt == t,
                    'instance_norm': bb == b and dd == d,
                    'group_norm': bb == b and G is not None and dd // (D // G) == d // (D // G),
                }[method]
                if same:
                    out.append([bb, tt, dd])
    return out


def shapes():
    fam = Family('shapes')
    for shape in [[3, 4, 5], [2, 3, 6], [1, 1, 1], [4, 2, 8]]:
        for index in [[0, 0, 0], [s - 1 for s in shape], [s // 2 for s in shape]]:
            for method in ['batch_norm', 'layer_norm', 'rms_norm', 'instance_norm']:
                fam.ok(f'group-{method}-{shape}-{index}', 'reduction_group', {},
                       {'method': method, 'shape': shape, 'index': index},
                       {'members': group_members(method, shape, index)})
            for G in [g for g in range(1, shape[2] + 1) if shape[2] % g == 0]:
                fam.ok(f'group-gn{G}-{shape}-{index}', 'reduction_group', {},
                       {'method': 'group_norm', 'shape': shape, 'index': index, 'num_groups': G},
                       {'members': group_members('group_norm', shape, index, G)})
    for shape, axes, keep in [([2, 5, 8], [-1], True), ([2, 5, 8], [-1], False), ([2, 5, 8], [0, 2], True),
                              ([4, 3, 2, 2], [0, 2, 3], False), ([7], [0], False), ([2, 3], [], False), ([3, 1], [1, 0], True)]:
        want = list(np.sum(np.zeros(shape), axis=tuple(axes), keepdims=keep).shape)
        fam.ok(f'reduce-{shape}-{axes}-{keep}', 'reduce_shape', {}, {'shape': shape, 'axes': axes, 'keepdim': keep},
               {'shape': want})
    for a, b in [([2, 5, 8], [2, 5, 1]), ([2, 5, 8], [2, 1, 8]), ([8], [2, 5, 1]), ([1], [3, 4]), ([3, 1, 4], [2, 1]), ([], [3])]:
        fam.ok(f'broadcast-{a}-{b}', 'broadcast_shape', {}, {'a': a, 'b': b}, {'shape': list(np.broadcast_shapes(tuple(a), tuple(b)))})
    fam.bad('group-gn-divide', 'reduction_group', {}, {'method': 'group_norm', 'shape': [3, 4, 5], 'index': [0, 0, 0], 'num_groups': 2},
            'reduction_group', 'num_groups')
    fam.bad('group-index', 'reduction_group', {}, {'method': 'layer_norm', 'shape': [3, 4, 5], 'index': [3, 0, 0]},
            'reduction_group', 'index')
    fam.bad('group-method', 'reduction_group', {}, {'method': 'ln', 'shape': [3, 4, 5], 'index': [0, 0, 0]}, 'reduction_group', 'method')
    fam.bad('group-shape-zero', 'reduction_group', {}, {'method': 'layer_norm', 'shape': [0, 3, 4], 'index': [0, 0, 0]},
            'reduction_group', 'shape')
    fam.bad('group-gn-missing', 'reduction_group', {}, {'method': 'group_norm', 'shape': [3, 4, 5], 'index': [0, 0, 0]},
            'reduction_group', 'num_groups')
    fam.bad('reduce-axis', 'reduce_shape', {}, {'shape': [2, 3], 'axes': [2]}, 'reduce_shape', 'axes')
    fam.bad('reduce-dup', 'reduce_shape', {}, {'shape': [2, 3], 'axes': [1, -1]}, 'reduce_shape', 'axes')
    fam.bad('broadcast-bad', 'broadcast_shape', {}, {'a': [2, 3], 'b': [4]}, 'broadcast_shape', 'incompatible')
    fam.ok('broadcast-after-bad', 'broadcast_shape', {}, {'a': [2, 3], 'b': [3]}, {'shape': [2, 3]})
    fam.write()
    return fam


# ------------------------------------------------- bad input, for every op
EPS_OPS = {'l2_normalize', 'l1_normalize', 'max_normalize', 'scale_norm', 'layer_norm', 'rms_norm', 'batch_norm',
           'instance_norm', 'group_norm', 'ghost_batch_norm', 'batch_renorm', 'switchable_norm', 'filter_response_norm',
           'ada_layer_norm', 'adaptive_rms_norm', 'conditional_batch_norm', 'adain', 'spade', 'weight_standardize',
           'spectral_norm', 'residual_block', 'whiten', 'l2_normalize_jacobian', 'layer_norm_jacobian'}
MOMENTUM_OPS = {'batch_norm', 'conditional_batch_norm'}


def bad_inputs(families):
    """From the first good case of each op: a NaN and an Infinity in every input,
    an empty input, an unknown attribute, eps < 0 and momentum > 1 where the op
    has them, each followed by the good case again (the module stays usable)."""
    fam = Family('bad_inputs')
    seen = set()
    for f in families:
        for c in f.cases:
            if c['op'] in seen or 'outputs' not in c['expect']:
                continue
            seen.add(c['op'])
            op = c['op']
            variants = []
            for name, t in c['inputs'].items():
                for bad, word in [('NaN', 'NaN'), ('-Infinity', '-Infinity')]:
                    v = json.loads(json.dumps(c))
                    v['inputs'][name]['data'][-1] = bad
                    variants.append((f'{name}-{word}', v, [op, name, word]))
                v = json.loads(json.dumps(c))
                v['inputs'][name] = {'shape': [0] + t['shape'][1:], 'data': []}
                variants.append((f'{name}-empty', v, [op, name, 'empty']))
            v = json.loads(json.dumps(c))
            v['attrs']['bogus'] = 1
            variants.append(('unknown-attr', v, [op, 'bogus']))
            if op in EPS_OPS:
                v = json.loads(json.dumps(c))
                v['attrs']['eps'] = -0.5
                variants.append(('eps-negative', v, [op, 'eps', '>= 0']))
            if op in MOMENTUM_OPS:
                v = json.loads(json.dumps(c))
                v['attrs']['momentum'] = 1.5
                variants.append(('momentum', v, [op, 'momentum']))
            for tag, v, needles in variants:
                v['id'] = f'{op}-bad-{tag}'
                v['expect'] = {'error': needles}
                v.pop('tol', None)
                fam.cases.append(v)
            good = json.loads(json.dumps(c))
            good['id'] = f'{op}-good-after-bad'
            fam.cases.append(good)
    fam.cases.append({'id': 'unknown-op', 'op': 'no_such_norm', 'inputs': {}, 'attrs': {},
                      'expect': {'error': ['unknown operation', 'no_such_norm']}})
    fam.write()
    return fam


if __name__ == '__main__':
    os.makedirs(OUT, exist_ok=True)
    print('torch', torch.__version__, 'numpy', np.__version__, file=sys.stderr)
    families = [fn() for fn in [vector_norms, layer_norms, batch_norms, conditioning, weights, attention, gradients,
                                 preprocessing, shapes]]
    bad_inputs(families)
    # The ops of docs/ops.md with a `reference:` line (the ones this script covers), in its order,
    # so that tests can check each has good and bad cases.
    import re
    ops_md = os.path.join(os.path.dirname(__file__), '..', 'docs', 'ops.md')
    names = [m.group(1) for m in re.finditer(r'^### ([a-z_0-9]+)\n(?:\n|- .*\n)*?- reference: ', open(ops_md).read(), re.M)]
    with open(os.path.join(OUT, '..', 'ops-list.json'), 'w') as fh:
        json.dump(names, fh, indent=0)
    print('ops.md lists', len(names), 'operations')
