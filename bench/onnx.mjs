// A minimal ONNX model writer for the bench: one graph of a few nodes, float32
// inputs and outputs with fixed shapes, float/int attributes, float32
// initializers. Protocol-buffer wire format by hand (varints and
// length-delimited fields), field numbers from onnx.proto.
const enc = new TextEncoder();

function varint(n) {
  const out = [];
  let v = BigInt(n);
  if (v < 0n) v += 1n << 64n;
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return out;
}
const key = (field, wire) => varint((field << 3) | wire);
const bytes = (field, data) => [...key(field, 2), ...varint(data.length), ...data];
const str = (field, s) => bytes(field, [...enc.encode(s)]);
const int = (field, n) => [...key(field, 0), ...varint(n)];
function float32(field, f) {
  const b = new Uint8Array(new Float32Array([f]).buffer);
  return [...key(field, 5), ...b];
}

function attribute(name, value) {
  // AttributeProto: name 1, f 2, i 3, ints 8, type 20 (FLOAT 1, INT 2, INTS 7)
  if (Array.isArray(value)) return [...str(1, name), ...value.flatMap((v) => int(8, v)), ...int(20, 7)];
  if (Number.isInteger(value) && !(typeof value === 'object'))
    return [...str(1, name), ...int(3, value), ...int(20, 2)];
  return [...str(1, name), ...float32(2, value), ...int(20, 1)];
}

function node({ op, inputs, outputs, attrs = {}, domain }) {
  // NodeProto: input 1, output 2, op_type 4, attribute 5, domain 7
  return [
    ...inputs.flatMap((n) => str(1, n)),
    ...outputs.flatMap((n) => str(2, n)),
    ...str(4, op),
    ...Object.entries(attrs).flatMap(([k, v]) => bytes(5, attribute(k, v))),
    ...(domain ? str(7, domain) : []),
  ];
}

function valueInfo(name, shape, elemType = 1) {
  // ValueInfoProto{name 1, type 2: TypeProto{tensor_type 1: {elem_type 1, shape 2: {dim 1: {dim_value 1}}}}}
  const dims = shape.flatMap((d) => bytes(1, int(1, d)));
  return [...str(1, name), ...bytes(2, bytes(1, [...int(1, elemType), ...bytes(2, dims)]))];
}

function initializer(name, shape, values, elemType = 1) {
  // TensorProto: dims 1, data_type 2, name 8, raw_data 9
  const raw =
    elemType === 7
      ? new Uint8Array(new BigInt64Array(values.map(BigInt)).buffer)
      : new Uint8Array(new Float32Array(values).buffer);
  return [...shape.flatMap((d) => int(1, d)), ...int(2, elemType), ...str(8, name), ...bytes(9, [...raw])];
}

/**
 * @param {{nodes: object[], inputs: [string, number[]][], outputs: [string, number[]][],
 *          initializers?: [string, number[], number[], number?][], opset?: number}} g
 * @returns {Uint8Array} the serialized ModelProto
 */
export function onnxModel({ nodes, inputs, outputs, initializers = [], opset = 18, msDomain = false }) {
  const graph = [
    ...nodes.flatMap((n) => bytes(1, node(n))),
    ...str(2, 'bench'),
    ...initializers.flatMap(([name, shape, values, t]) => bytes(5, initializer(name, shape, values, t))),
    ...inputs.flatMap(([name, shape]) => bytes(11, valueInfo(name, shape))),
    ...outputs.flatMap(([name, shape]) => bytes(12, valueInfo(name, shape))),
  ];
  const model = [
    ...int(1, 8), // ir_version
    ...bytes(8, [...str(1, ''), ...int(2, opset)]),
    ...(msDomain ? bytes(8, [...str(1, 'com.microsoft'), ...int(2, 1)]) : []),
    ...str(2, 'normlab-bench'),
    ...bytes(7, graph),
  ];
  return new Uint8Array(model);
}
