import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildGrammar } from './grammar.ts';

test('a plain sequence with pronunciation alternatives', () => {
  const g = buildGrammar([{ alternatives: ['P_DH_AH', 'P_DH_IY'] }, { alternatives: ['P_K_AE_T'] }], {
    garbage: [],
    garbageWeight: 0,
    openEnd: false,
  });
  assert.equal(g, '#JSGF V1.0;\ngrammar tz;\npublic <utt> = ( P_DH_AH | P_DH_IY ) P_K_AE_T ;\n');
});

test('skippable units and a garbage loop between words', () => {
  const g = buildGrammar([{ alternatives: ['A'], skippable: 0.9 }, { alternatives: ['B'] }], {
    garbage: ['G_AA', 'G_S'],
    garbageWeight: 0.01,
    openEnd: false,
  });
  assert.equal(
    g,
    '#JSGF V1.0;\ngrammar tz;\npublic <utt> = ( /0.01/ <g> | /1/ <NULL> ) ( /0.9/ A | /0.100/ <NULL> ) ( /0.01/ <g> | /1/ <NULL> ) B ( /0.01/ <g> | /1/ <NULL> ) ;\n<g> = ( G_AA | G_S )+ ;\n',
  );
});

test('an open end accepts every prefix of the text', () => {
  const g = buildGrammar([{ alternatives: ['A'] }, { alternatives: ['B'] }, { alternatives: ['C'] }], {
    garbage: [],
    garbageWeight: 0,
    openEnd: true,
  });
  assert.match(g, /public <utt> = A \[ B \[ C \] \] ;/);
});
