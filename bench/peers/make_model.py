#!/usr/bin/env python3
"""Writes the ONNX model of the attention the peers run (scripts/bench.sh makes it).

    /usr/bin/python3 bench/peers/make_model.py OUT.onnx [--heads 8] [--d-head 64]

Inputs Q, K, V of shape [heads, n, d] (float32, n symbolic, so one model
serves every size); output = Softmax(MatMul(Q, Transpose(K)) * 1/sqrt(d)) V,
the graph of attn::scaled_dot_product_attention without a mask. Needs
Debian's python3-onnx (onnx 1.12); the model is generated, never committed.
"""
import argparse
import math

import onnx
from onnx import TensorProto, helper


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('out')
    ap.add_argument('--heads', type=int, default=8)
    ap.add_argument('--d-head', type=int, default=64)
    args = ap.parse_args()
    h, d = args.heads, args.d_head

    shape = [h, 'n', d]
    inputs = [helper.make_tensor_value_info(name, TensorProto.FLOAT, shape) for name in 'QKV']
    output = helper.make_tensor_value_info('output', TensorProto.FLOAT, shape)
    scale = helper.make_tensor('scale', TensorProto.FLOAT, [], [1.0 / math.sqrt(d)])
    nodes = [
        helper.make_node('Transpose', ['K'], ['Kt'], perm=[0, 2, 1]),
        helper.make_node('MatMul', ['Q', 'Kt'], ['scores']),
        helper.make_node('Mul', ['scores', 'scale'], ['scaled']),
        helper.make_node('Softmax', ['scaled'], ['weights'], axis=-1),
        helper.make_node('MatMul', ['weights', 'V'], ['output']),
    ]
    graph = helper.make_graph(nodes, 'attention', inputs, [output], initializer=[scale])
    # Opset 13: Softmax normalises along the one axis given (older opsets flatten).
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 13)],
                              producer_name='attention-lab bench')
    onnx.checker.check_model(model)
    onnx.save(model, args.out)


if __name__ == '__main__':
    main()
