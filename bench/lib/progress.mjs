// Progress lines on stderr (stdout stays free for a machine-readable summary).

const started = performance.now();

function stamp() {
  const s = (performance.now() - started) / 1000;
  return `${s.toFixed(1).padStart(6)}s`;
}

export function progress(message) {
  process.stderr.write(`[bench ${stamp()}] ${message}\n`);
}

/** Runs one named step, printing a line when it starts and when it ends (with its duration). */
export async function step(name, fn) {
  const t0 = performance.now();
  progress(`${name} …`);
  try {
    const value = await fn();
    progress(`${name} done in ${((performance.now() - t0) / 1000).toFixed(1)}s`);
    return value;
  } catch (error) {
    progress(
      `${name} FAILED after ${((performance.now() - t0) / 1000).toFixed(1)}s: ${error?.message ?? error}`,
    );
    throw error;
  }
}
