// Each kind of wrong definition is refused by defineWorkload with a FormatError that names the
// function, the source label and the offending field, with the closest name when there is one.

import { describe, expect, it } from 'vitest';
import { defineWorkload } from '../../src/workloads/definition.js';
import { expectDefineError, layerDefinition, type LooseDefinition, thrownBy } from './workload-helpers.js';

const WHERE = 'cases/layer.json';

interface Case {
  readonly what: string;
  readonly edit: (d: LooseDefinition) => void;
  /** Message fragments, the offending field first. */
  readonly expect: readonly string[];
}

const cases: readonly Case[] = [
  {
    what: 'an unknown top-level field, with the field it resembles',
    edit: (d) => {
      d['opertors'] = [];
    },
    expect: ['opertors: unknown field (did you mean "operators"?)'],
  },
  {
    what: 'an unknown top-level field like no other, with the list of fields',
    edit: (d) => {
      d['zzzzzzzzz'] = 1;
    },
    expect: ['zzzzzzzzz: unknown field (fields: name, description, precision, params, inputs, operators, outputs)'],
  },
  {
    what: 'a name with a blank',
    edit: (d) => {
      d['name'] = 'two words';
    },
    expect: ['name: must be a word', 'got "two words"'],
  },
  {
    what: 'a name that is not a string',
    edit: (d) => {
      d['name'] = 42;
    },
    expect: ['name: must be a word', 'got 42'],
  },
  {
    what: 'an unknown operator kind, with the kind it resembles',
    edit: (d) => {
      d['operators'][1].kind = 'relux';
    },
    expect: ['operators[1].kind: "relux" is not an operator (did you mean "relu"?)'],
  },
  {
    what: 'an unknown operator kind like no other, with the list of kinds',
    edit: (d) => {
      d['operators'][1].kind = 'convolution';
    },
    expect: ['operators[1].kind: "convolution" is not an operator (operators: spmm, spmv,'],
  },
  {
    what: 'too many operands',
    edit: (d) => {
      d['operators'][1].inputs = ['y', 'y'];
    },
    expect: ['operators[1].inputs: relu takes 1 operand name(s) (dense), got ["y","y"]'],
  },
  {
    what: 'too few operands',
    edit: (d) => {
      d['operators'][0].inputs = ['A'];
    },
    expect: ['operators[0].inputs: spmm takes 2 operand name(s) (sparse, dense), got ["A"]'],
  },
  {
    what: 'a dense operand where a sparse one is needed',
    edit: (d) => {
      d['operators'][0].inputs = ['X', 'X'];
    },
    expect: ['operators[0].inputs[0]: spmm needs a sparse operand here, "X" is dense'],
  },
  {
    what: 'a sparse operand where a dense one is needed',
    edit: (d) => {
      d['operators'][1].inputs = ['A'];
    },
    expect: ['operators[1].inputs[0]: relu needs a dense operand here, "A" is sparse'],
  },
  {
    what: 'BFS depths where a dense operand is needed',
    edit: (d) => {
      d['operators'].push({ id: 'depth', kind: 'bfs', inputs: ['graph'] }, { id: 'r', kind: 'relu', inputs: ['depth'] });
    },
    expect: ['operators[3].inputs[0]: relu needs a dense operand here, "depth" is depths'],
  },
  {
    what: 'an unknown operand name, with the name it resembles',
    edit: (d) => {
      d['operators'][0].inputs = ['grap', 'X'];
    },
    expect: ['operators[0].inputs[0]: "grap" is neither an input nor an operator (did you mean "graph"?)'],
  },
  {
    what: 'an operator id used twice',
    edit: (d) => {
      d['operators'][1].id = 'y';
    },
    expect: ['operators[1].id: "y" is already used'],
  },
  {
    what: 'an operator id that is an input name',
    edit: (d) => {
      d['operators'][1].id = 'X';
    },
    expect: ['operators[1].id: "X" is already used'],
  },
  {
    what: 'an operator id that is not an identifier',
    edit: (d) => {
      d['operators'][1].id = 'h-1';
    },
    expect: ['operators[1].id: must be an identifier, got "h-1"'],
  },
  {
    what: 'a cycle of two operators',
    edit: (d) => {
      d['operators'][0].inputs = ['A', 'h'];
    },
    expect: ['operators[0]: "y" depends on itself through a cycle'],
  },
  {
    what: 'an operator reading its own output',
    edit: (d) => {
      d['operators'][1].inputs = ['h'];
    },
    expect: ['operators[1]: "h" depends on itself through a cycle'],
  },
  {
    what: 'an unknown output, with the id it resembles',
    edit: (d) => {
      d['outputs'] = ['hh'];
    },
    expect: ['outputs[0]: "hh" is not an operator id (did you mean "h"?)'],
  },
  {
    what: 'an output that names an input rather than an operator',
    edit: (d) => {
      d['outputs'] = ['h', 'graph'];
    },
    expect: ['outputs[1]: "graph" is not an operator id'],
  },
  {
    what: 'no outputs',
    edit: (d) => {
      d['outputs'] = [];
    },
    expect: ['outputs: must be a non-empty array of operator ids'],
  },
  {
    what: 'an unknown $param in an expression, with the param it resembles',
    edit: (d) => {
      d['inputs'].X.cols = '$hiden';
    },
    expect: ['inputs.X.cols: refers to $hiden, which is not in "params" (did you mean "$hidden"?)'],
  },
  {
    what: 'an unknown input in an expression, with the input it resembles',
    edit: (d) => {
      d['inputs'].X.rows = 'grahp.rows';
    },
    expect: ['inputs.X.rows: refers to grahp.*, which is not an input (did you mean "graph"?)'],
  },
  {
    what: 'an expression that does not parse, under its field',
    edit: (d) => {
      d['inputs'].X.rows = '(graph.rows';
    },
    expect: ['inputs.X.rows: missing ")"'],
  },
  {
    what: 'an unknown transform, with the transform it resembles',
    edit: (d) => {
      d['inputs'].A.transform = 'gcn-normalize';
    },
    expect: ['inputs.A.transform: "gcn-normalize" is not a transform (did you mean "gcn-normalise"?)'],
  },
  {
    what: '"from" without "transform"',
    edit: (d) => {
      delete d['inputs'].A.transform;
    },
    expect: ['inputs.A: "from" and "transform" go together'],
  },
  {
    what: '"transform" without "from"',
    edit: (d) => {
      delete d['inputs'].A.from;
    },
    expect: ['inputs.A: "from" and "transform" go together'],
  },
  {
    what: '"from" naming an input that is itself derived',
    edit: (d) => {
      d['inputs'].B = { kind: 'sparse', from: 'A', transform: 'transpose' };
    },
    expect: ['inputs.B.from: must name a sparse input given by the data (not itself derived), got "A"'],
  },
  {
    what: '"from" naming a dense input',
    edit: (d) => {
      d['inputs'].A.from = 'X';
    },
    expect: ['inputs.A.from: must name a sparse input', 'got "X"'],
  },
  {
    what: 'an unknown operator param, with the param it resembles',
    edit: (d) => {
      d['operators'].push({ id: 'z', kind: 'affine', inputs: ['h'], params: { scal: 2 } });
    },
    expect: ['operators[2].params.scal: affine has no parameter "scal" (did you mean "scale"?)'],
  },
  {
    what: 'a param on an operator that takes none',
    edit: (d) => {
      d['operators'][1].params = { scale: 2 };
    },
    expect: ['operators[1].params.scale: relu has no parameter "scale"'],
  },
  {
    what: 'a reduce op that does not exist',
    edit: (d) => {
      d['operators'].push({ id: 'r', kind: 'reduce', inputs: ['h'], params: { op: 'mean' } });
    },
    expect: ['operators[2].params.op: must be "sum", "max" or "norm2", got "mean"'],
  },
  {
    what: 'an unknown field of an input, with the field it resembles',
    edit: (d) => {
      d['inputs'].X.generat = 'random';
    },
    expect: ['inputs.X.generat: unknown field (did you mean "generate"?)'],
  },
  {
    what: 'an input kind that is neither sparse nor dense',
    edit: (d) => {
      d['inputs'].X.kind = 'vector';
    },
    expect: ['inputs.X.kind: must be "sparse" or "dense", got "vector"'],
  },
  {
    what: 'a generate that is neither "random" nor a fill',
    edit: (d) => {
      d['inputs'].X.generate = 'zeros';
    },
    expect: ['inputs.X.generate: must be "random" or { "fill": <expression> }, got "zeros"'],
  },
  {
    what: 'a param that is not a finite number',
    edit: (d) => {
      d['params'].hidden = '8';
    },
    expect: ['params.hidden: must be a finite number, got "8"'],
  },
  {
    what: 'a precision other than f32 or f64',
    edit: (d) => {
      d['precision'] = 'f16';
    },
    expect: ['precision: must be "f32" or "f64", got "f16"'],
  },
  {
    what: 'no inputs',
    edit: (d) => {
      d['inputs'] = {};
    },
    expect: ['inputs: must be a non-empty object of input declarations'],
  },
  {
    what: 'no operators',
    edit: (d) => {
      d['operators'] = [];
    },
    expect: ['operators: must be a non-empty array'],
  },
];

describe('defineWorkload refuses', () => {
  it('the base definition itself is valid', () => {
    expect(defineWorkload(layerDefinition(), WHERE).name).toBe('layer');
  });

  for (const c of cases) {
    it(c.what, () => {
      const d = layerDefinition();
      c.edit(d);
      expectDefineError(
        thrownBy(() => defineWorkload(d, WHERE)),
        WHERE,
        ...c.expect,
      );
    });
  }

  it('a value that is not an object, labelled <object> by default', () => {
    for (const v of [null, 3, 'gcn', [layerDefinition()]]) {
      expectDefineError(
        thrownBy(() => defineWorkload(v)),
        '<object>',
        'workload: must be an object',
      );
    }
  });
});
