// Compare a runner's OUT.json with the expectations stored in a cases file.
// A value passes when |got - want| <= tol + tol * |want| (tol 1e-4 unless the
// case says otherwise); an expected error passes when the message holds every
// expected fragment. Failures name the case, output, element index and values.

export function compareCase(c, result) {
  const failures = [];
  const fail = (msg) => failures.push(`${c.id} (${c.op}): ${msg}`);
  if (!result || result.id !== c.id) {
    fail(`no result (got ${result?.id})`);
    return failures;
  }
  const exp = c.expect ?? {};
  if (exp.error) {
    if (!result.error) fail(`expected an error mentioning ${JSON.stringify(exp.error)} but got outputs`);
    else {
      for (const needle of exp.error) {
        if (!result.error.message.includes(needle))
          fail(`error "${result.error.message}" does not mention "${needle}"`);
      }
    }
    return failures;
  }
  if (result.error) {
    fail(`unexpected error: ${result.error.message}`);
    return failures;
  }
  const tol = c.tol ?? 1e-4;
  for (const [name, want] of Object.entries(exp.outputs ?? {})) {
    const got = result.outputs?.[name];
    if (!got) {
      fail(`missing output ${name}`);
      continue;
    }
    if (JSON.stringify(got.shape) !== JSON.stringify(want.shape)) {
      fail(`output ${name} has shape ${JSON.stringify(got.shape)}, want ${JSON.stringify(want.shape)}`);
      continue;
    }
    let bad = 0;
    for (let i = 0; i < want.data.length; i++) {
      const g = got.data[i],
        w = want.data[i];
      if (!(Math.abs(g - w) <= tol + tol * Math.abs(w))) {
        if (bad++ < 3) fail(`output ${name}[${i}] = ${g}, want ${w} (tol ${tol})`);
      }
    }
    if (bad > 3) fail(`output ${name}: ${bad} elements out of tolerance in all`);
  }
  return failures;
}
