#!/usr/bin/python3
"""Reference cases for the transformer's training ops, from torch.autograd and torch.optim.AdamW in float64.

Run with Debian's python3 (apt install python3-torch python3-numpy):

    /usr/bin/python3 scripts/gen_transformer_references.py

Writes tests/conformance/cases/transformer.json: for every configuration (placement x norm x qk_norm x tied) at a
tiny size, the loss, every gradient, the logits and the per-layer measures of tfm_grad; 20-step AdamW runs with
warm-up, cosine decay and clipping (tfm_step); the seeded start (tfm_init); greedy and temperature sampling
(tfm_sample); and bad input. The model is the one documented in cpp/include/normlab/training_transformer.hpp,
written here again, independently, with torch's own layers.
"""
import math
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(__file__))
from gen_references import Family, f32  # noqa: E402
from gen_training_references import Normal  # noqa: E402

torch.set_default_dtype(torch.float64)
rng = np.random.default_rng(20261202)


def layout(c):
    V, D, H, L, S, R = c['vocab'], c['d_model'], c['heads'], c['layers'], c['context'], c['mlp_ratio']
    hd, Fd = D // H, R * D
    o = {}
    at = 0

    def take(name, n):
        nonlocal at
        o[name] = (at, n)
        at += n
    take('E', V * D)
    take('Pos', S * D)
    for l in range(L):
        for name, n in [('n1g', D), ('n1b', D), ('Wq', D * D), ('Wk', D * D), ('Wv', D * D), ('Wo', D * D),
                        ('qg', hd), ('qb', hd), ('kg', hd), ('kb', hd), ('g', 1), ('n2g', D), ('n2b', D),
                        ('W1', D * Fd), ('W2', Fd * D)]:
            take(f'{name}{l}', n)
    take('nfg', D)
    take('nfb', D)
    take('Wh', D * V)
    return o, at


def init(c, seed):
    o, n = layout(c)
    p = np.zeros(n)
    g = Normal(seed)
    D, Fd = c['d_model'], c['mlp_ratio'] * c['d_model']

    def draw(name, fan):
        at, k = o[name]
        for i in range(k):
            p[at + i] = g.next() / math.sqrt(fan)
    draw('E', D)
    draw('Pos', D)
    S = c['context']
    for l in range(c['layers']):
        for w in ['Wq', 'Wk', 'Wv', 'Wo', 'W1']:
            draw(f'{w}{l}', D)
        draw(f'W2{l}', Fd)
        for w in ['n1g', 'n2g', 'qg', 'kg']:
            at, k = o[f'{w}{l}']
            p[at:at + k] = 1
        p[o[f'g{l}'][0]] = math.log2(S * S - S) if S >= 2 else 1.0
    at, k = o['nfg']
    p[at:at + k] = 1
    draw('Wh', D)
    return p


def model(p, tokens, targets, c):
    """loss, logits and the measures: per layer max |attention logit|, mean entropy, residual RMS."""
    o, _ = layout(c)
    V, D, H, L = c['vocab'], c['d_model'], c['heads'], c['layers']
    hd, Fd, eps = D // H, c['mlp_ratio'] * D, c.get('eps', 1e-5)
    rms = c.get('norm', 'layer_norm') == 'rms_norm'
    place = c.get('placement', 'pre_final')
    qk = c.get('qk_norm', 'none')

    def P(name, *shape):
        at, k = o[name]
        return p[at:at + k].view(*shape)

    def norm(x, gname, bname, w, kind_rms):
        if kind_rms:
            return x / torch.sqrt((x * x).mean(-1, keepdim=True) + eps) * P(gname, w)
        return F.layer_norm(x, (w,), P(gname, w), P(bname, w), eps)

    tokens = torch.as_tensor(tokens).long()
    B, T = tokens.shape
    h = P('E', V, D)[tokens] + P('Pos', c['context'], D)[:T]
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool))
    maxl, ent, act, att_p = [], [], [], []
    act_fn = F.relu if c.get('activation', 'gelu') == 'relu' else F.gelu
    for l in range(L):
        u1 = h if place == 'post' else norm(h, f'n1g{l}', f'n1b{l}', D, rms)

        def heads(x):
            return x.view(B, T, H, hd).transpose(1, 2)
        q, k, v = heads(u1 @ P(f'Wq{l}', D, D)), heads(u1 @ P(f'Wk{l}', D, D)), heads(u1 @ P(f'Wv{l}', D, D))
        if qk == 'l2':
            q = q / torch.sqrt((q * q).sum(-1, keepdim=True) + hd * eps)
            k = k / torch.sqrt((k * k).sum(-1, keepdim=True) + hd * eps)
            s = P(f'g{l}', 1)[0] * (q @ k.transpose(-1, -2))
        else:
            if qk in ('layer_norm', 'rms_norm'):
                q = norm(q, f'qg{l}', f'qb{l}', hd, qk == 'rms_norm')
                k = norm(k, f'kg{l}', f'kb{l}', hd, qk == 'rms_norm')
            s = (q @ k.transpose(-1, -2)) / math.sqrt(hd)
        maxl.append(s.detach().abs().masked_fill(~causal, 0).max().item())
        pr = torch.softmax(s.masked_fill(~causal, float('-inf')), -1)
        plogp = torch.where(pr > 0, pr * torch.log(pr.clamp_min(1e-300)), torch.zeros_like(pr))
        ent.append(-plogp.detach().sum().item() / (B * H * T))
        att_p.append(pr.detach().numpy())
        att = (pr @ v).transpose(1, 2).reshape(B, T, D) @ P(f'Wo{l}', D, D)
        mlp = lambda u: act_fn(u @ P(f'W1{l}', D, Fd)) @ P(f'W2{l}', Fd, D)  # noqa: E731
        if place == 'post':
            mid = norm(h + att, f'n1g{l}', f'n1b{l}', D, rms)
            h = norm(mid + mlp(mid), f'n2g{l}', f'n2b{l}', D, rms)
        else:
            mid = h + att
            h = mid + mlp(norm(mid, f'n2g{l}', f'n2b{l}', D, rms))
        act.append(math.sqrt((h.detach() ** 2).mean().item()))
    z = norm(h, 'nfg', 'nfb', D, rms) if place == 'pre_final' else h
    logits = z @ P('E', V, D).T if c.get('tied', True) else z @ P('Wh', D, V)
    loss = None
    if targets is not None:
        lse = torch.logsumexp(logits, -1)
        loss = F.cross_entropy(logits.reshape(-1, V), torch.as_tensor(targets).long().reshape(-1)) + \
            c.get('z_loss', 0.0) * (lse * lse).mean()
    return loss, logits, maxl, ent, act, np.stack(att_p)


def block_norms(grad, c):
    o, _ = layout(c)
    out = []
    for l in range(c['layers']):
        start = o[f'n1g{l}'][0]
        end = o[f'W2{l}'][0] + o[f'W2{l}'][1]
        out.append(float(np.linalg.norm(grad[start:end])))
    return out


def grads(p, tokens, targets, c):
    pt = torch.tensor(p, requires_grad=True)
    loss, logits, maxl, ent, act, att_p = model(pt, tokens, targets, c)
    loss.backward()
    g = pt.grad.numpy()
    return {'loss': [loss.item()], 'grad': g, 'logits': logits.detach().numpy(), 'max_logit': maxl, 'entropy': ent,
            'act_rms': act, 'grad_norm': block_norms(g, c), 'logit_mean': [logits.detach().mean().item()],
            'attention': att_p}


def rate(t, lr, warmup, total, lr_min):
    if warmup > 0 and t <= warmup:
        return lr * t / warmup
    if total <= warmup or total <= 0:
        return lr
    progress = min(1.0, (t - warmup) / (total - warmup))
    return lr * (lr_min + (1 - lr_min) * 0.5 * (1 + math.cos(math.pi * progress)))


def train(p, batches, c, steps, lr, beta1, beta2, wd, warmup, total, lr_min, clip):
    """steps of torch.optim.AdamW with the schedule set per step; params and moments rounded to float32 after
    each (tfm_step documents it); step k uses batch k mod K."""
    pt = torch.tensor(p, requires_grad=True)
    opt = torch.optim.AdamW([pt], lr=lr, betas=(beta1, beta2), eps=1e-8, weight_decay=wd)
    rec = {k: [] for k in ['loss', 'max_logit', 'entropy', 'act_rms', 'grad_norm', 'logit_mean']}
    for t in range(1, steps + 1):
        tokens, targets = batches[(t - 1) % len(batches)]
        for grp in opt.param_groups:
            grp['lr'] = rate(t, lr, warmup, total, lr_min)
        opt.zero_grad()
        loss, logits, maxl, ent, act, att_p = model(pt, tokens, targets, c)
        loss.backward()
        rec['grad_norm'].append(block_norms(pt.grad.numpy(), c))
        if clip > 0:
            torch.nn.utils.clip_grad_norm_([pt], clip)
        opt.step()
        with torch.no_grad():
            pt.copy_(pt.float().double())
            for key in ('exp_avg', 'exp_avg_sq'):
                opt.state[pt][key].copy_(opt.state[pt][key].float().double())
        rec['loss'].append(loss.item())
        rec['max_logit'].append(maxl)
        rec['entropy'].append(ent)
        rec['act_rms'].append(act)
        rec['logit_mean'].append(logits.detach().mean().item())
    st = opt.state[pt]
    state = np.concatenate([st['exp_avg'].numpy(), st['exp_avg_sq'].numpy(), [float(st['step'])]])
    out = {'params': pt.detach().numpy(), 'state': state}
    out.update({k: np.asarray(v) for k, v in rec.items()})
    return out


def sample(p, prompt, c, count, temperature, seed):
    g = Normal(seed)
    seq = list(prompt)
    out = []
    with torch.no_grad():
        for _ in range(count):
            ctx = seq[-c['context']:]
            _, logits, _, _, _, _ = model(torch.tensor(p), np.array([ctx]), None, c)
            lg = logits[0, -1].numpy()
            pick = int(np.argmax(lg))
            if temperature > 0:
                w = np.exp((lg - lg[pick]) / temperature)
                u = g.uniform() * w.sum()
                pick = 0
                while pick + 1 < len(w) and u >= w[pick]:
                    u -= w[pick]
                    pick += 1
            out.append(pick)
            seq.append(pick)
    return out


TINY = {'vocab': 11, 'd_model': 8, 'heads': 2, 'layers': 2, 'context': 7, 'mlp_ratio': 4}


def tokens_of(B, T, V):
    x = rng.integers(0, V, size=(B, T + 1))
    return f32(x[:, :-1]), f32(x[:, 1:])


def cases():
    fam = Family('transformer')
    tokens, targets = tokens_of(3, 6, TINY['vocab'])
    # every configuration: placement x norm x qk_norm x tied, with GELU; ReLU and z-loss on some
    for placement in ['post', 'pre', 'pre_final']:
        for normk in ['layer_norm', 'rms_norm']:
            for qk in ['none', 'l2', 'layer_norm', 'rms_norm']:
                for tied in [True, False]:
                    c = dict(TINY, placement=placement, norm=normk, qk_norm=qk, tied=tied)
                    if qk == 'layer_norm' and not tied:
                        c['activation'] = 'relu'
                    if qk == 'rms_norm' and tied:
                        c['z_loss'] = 1e-2
                    p = f32(init(c, 5) + rng.standard_normal(layout(c)[1]) * 0.1)
                    cid = f'grad-{placement}-{normk}-qk_{qk}-{"tied" if tied else "untied"}'
                    fam.ok(cid, 'tfm_grad', {'params': p, 'tokens': tokens, 'targets': targets}, c,
                           grads(p.astype(np.float64), tokens, targets, c), tol=1e-5)
    # large attention logits: a sharp, near one-hot softmax
    c = dict(TINY, placement='pre', qk_norm='none')
    p = init(c, 8)
    o, _ = layout(c)
    for l in range(2):
        for w in ['Wq', 'Wk']:
            at, k = o[f'{w}{l}']
            p[at:at + k] *= 4
    p = f32(p)
    fam.ok('grad-sharp-attention', 'tfm_grad', {'params': p, 'tokens': tokens, 'targets': targets}, c,
           grads(p.astype(np.float64), tokens, targets, c), tol=1e-5)
    # 20 AdamW steps: warm-up, cosine decay, clipping, weight decay; 2 batches alternating
    batches = [tokens_of(2, 6, TINY['vocab']) for _ in range(2)]
    for placement, normk, qk, tied, lr, wd, warmup, total, clip in [
            ('pre_final', 'layer_norm', 'none', True, 1e-2, 0.0, 5, 20, 1.0),
            ('pre_final', 'rms_norm', 'l2', True, 3e-2, 0.1, 4, 20, 0.5),
            ('pre', 'layer_norm', 'layer_norm', False, 1e-2, 0.01, 0, 0, 0.0),
            ('post', 'layer_norm', 'none', True, 5e-3, 0.0, 10, 30, 1.0),
            ('post', 'rms_norm', 'rms_norm', False, 2e-2, 0.05, 3, 15, 0.25),
            ('pre', 'rms_norm', 'l2', False, 0.1, 0.0, 2, 20, 1.0)]:
        c = dict(TINY, placement=placement, norm=normk, qk_norm=qk, tied=tied)
        p = f32(init(c, 3))
        out = train(p.astype(np.float64), [(a.astype(np.float64), b.astype(np.float64)) for a, b in batches], c,
                    20, lr, 0.9, 0.95, wd, warmup, total, 0.1, clip)
        out['status'] = [0]
        attrs = dict(c, steps=20, lr=lr, weight_decay=wd, warmup=warmup, total=total, clip=clip)
        K = np.stack([b[0] for b in batches]), np.stack([b[1] for b in batches])
        fam.ok(f'step20-{placement}-{normk}-qk_{qk}-{"tied" if tied else "untied"}-lr{lr}', 'tfm_step',
               {'params': p, 'state': f32(np.zeros(2 * p.size + 1)), 'tokens': K[0], 'targets': K[1]}, attrs, out,
               tol=1e-4)
    # the seeded start
    for c, seed in [(dict(TINY), 0), (dict(TINY, vocab=5, d_model=4, heads=1, layers=1, context=1), 2**40 + 3)]:
        p = init(c, seed)
        fam.ok(f'init-V{c["vocab"]}-D{c["d_model"]}-s{seed}', 'tfm_init', {}, dict(c, seed=seed),
               {'params': p, 'state': np.zeros(2 * p.size + 1)}, tol=1e-6)
    # sampling, greedy and with temperature, with a prompt longer than the context on the second
    c = dict(TINY, qk_norm='l2')
    p = f32(init(c, 4) + rng.standard_normal(layout(c)[1]) * 0.5)
    for prompt, count, temp, seed in [([1, 2, 3], 6, 0.0, 0), ([4, 0, 9, 9, 2, 7, 1, 3, 5], 5, 1.5, 11)]:
        fam.ok(f'sample-t{temp}-n{count}', 'tfm_sample', {'params': p, 'prompt': f32(prompt)},
               dict(c, count=count, temperature=temp, seed=seed),
               {'tokens': sample(p.astype(np.float64), prompt, c, count, temp, seed)}, tol=0)
    # bad input names the op and the argument
    c = dict(TINY)
    p = f32(init(c, 0))
    good = {'params': p, 'tokens': tokens, 'targets': targets}
    fam.bad('grad-bad-heads', 'tfm_grad', good, dict(c, heads=3), 'tfm_grad', 'heads must divide d_model')
    fam.bad('grad-bad-qk', 'tfm_grad', good, dict(c, qk_norm='cosine'), 'tfm_grad', 'qk_norm')
    fam.bad('grad-bad-params', 'tfm_grad', good, dict(c, layers=3), 'tfm_grad', 'params')
    fam.bad('grad-bad-token', 'tfm_grad', {**good, 'tokens': f32(np.full((3, 6), 11))}, c, 'tfm_grad', 'tokens',
            '[0, 10]')
    fam.bad('grad-long', 'tfm_grad', {**good, 'tokens': f32(np.zeros((1, 8))), 'targets': f32(np.zeros((1, 8)))}, c,
            'tfm_grad', 'tokens', 'context is 7')
    fam.bad('grad-bad-targets', 'tfm_grad', {**good, 'targets': f32(np.zeros((3, 5)))}, c, 'tfm_grad', 'targets')
    fam.bad('step-bad-lr', 'tfm_step', {**good, 'state': f32(np.zeros(2 * p.size + 1))}, dict(c, lr=-1),
            'tfm_step', 'lr')
    fam.bad('step-bad-state', 'tfm_step', {**good, 'state': f32(np.zeros(3))}, c, 'tfm_step', 'state')
    fam.bad('init-no-vocab', 'tfm_init', {}, {'d_model': 8}, 'tfm_init', 'vocab')
    fam.bad('sample-empty', 'tfm_sample', {'params': p, 'prompt': np.zeros((0,), np.float32)}, c, 'tfm_sample',
            'prompt')
    fam.write()


if __name__ == '__main__':
    print('torch', torch.__version__, 'numpy', np.__version__, file=sys.stderr)
    cases()
