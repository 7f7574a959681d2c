/** Captures everything written to stdout and stderr (the logger's output) while active; answers the lines. */
export function captureOutput() {
  const chunks: string[] = [];
  const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => { chunks.push(String(chunk)); return true; });
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => { chunks.push(String(chunk)); return true; });
  return {
    text: () => chunks.join(''),
    /** Lines that parse as JSON objects (log lines and EMF lines). */
    json: () => chunks.join('').split('\n').filter((l) => l.startsWith('{')).flatMap((l) => {
      try { return [JSON.parse(l) as Record<string, unknown>]; } catch { return []; }
    }),
    restore: () => { out.mockRestore(); err.mockRestore(); },
  };
}
