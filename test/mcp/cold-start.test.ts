/**
 * What a cold start of the MCP function evaluates before its first initialize / server/discover: not the tools (their
 * use cases and REST wire schemas), not the resources, not the route table's OAuth routes, and no Intl.Segmenter
 * (tens of milliseconds each to build). Each is loaded or made by the first request that needs it. The figures are
 * printed by bench/mcp.bench.ts; this file holds the behaviour.
 */
const LAZY = {
  tools: '../../functions/mcp/tools',
  resources: '../../functions/mcp/resources',
  routeTable: '../../functions/routes/mcp',
} as const;

/** Loads `load` in a fresh module registry and answers which of the LAZY modules it evaluated. */
async function evaluated(load: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  await jest.isolateModulesAsync(async () => {
    for (const [name, path] of Object.entries(LAZY)) {
      jest.doMock(path, () => { seen.push(name); return jest.requireActual(path); });
    }
    await load();
  });
  return seen.sort();
}

describe('the MCP cold start', () => {
  it('loading the handler evaluates neither the tools, the resources nor the route table', async () => {
    expect(await evaluated(async () => require('../../functions/mcp/handler'))).toEqual([]);
  });

  it('the first tools/list loads the tools, not the resources or the route table', async () => {
    expect(await evaluated(async () => {
      const server = require('../../functions/mcp/server') as typeof import('../../functions/mcp/server');
      const tools = await server.toolList();
      expect(tools.map((t) => t.name)).toContain('post_to_social');
    })).toEqual(['tools']);
  });

  it('no Intl.Segmenter is built by loading the text modules; the first measure or split builds one', () => {
    const Original = Intl.Segmenter;
    let built = 0;
    const intl = Intl as { Segmenter: typeof Intl.Segmenter };
    intl.Segmenter = class extends Original { constructor(...args: ConstructorParameters<typeof Original>) { super(...args); built++; } };
    try {
      jest.isolateModules(() => {
        const length = require('../../shared/domain/text-length') as typeof import('../../shared/domain/text-length');
        const split = require('../../shared/domain/text-split') as typeof import('../../shared/domain/text-split');
        expect(built).toBe(0);
        // the first count to segment builds it, whichever it is (X's weighting first here); the others share it
        expect(length.xWeightedLength('👨‍👩‍👧 hi')).toBe(5);
        expect(built).toBe(1);
        expect(length.threadsLength('👨‍👩‍👧 hi')).toBe(21);
        expect(length.graphemeLength('e\u0301 👨‍👩‍👧')).toBe(3);
        expect(built).toBe(1);
        expect(split.sentencesOf('One. Two.').map((p) => p.text)).toEqual(['One.', 'Two.']);
        expect(built).toBe(2);
      });
    } finally {
      intl.Segmenter = Original;
    }
  });
});
