import { z } from 'zod';
import { exportTest } from '../operations/export/export-test.js';
import { defineTool, type ToolHints, type ToolOutput } from './define.js';
import { sessionAddress } from './schemas.js';

const Step = z.number().int().min(1);

/** Writes a session file and changes nothing else: not read-only, not destructive, repeatable. */
const WRITES_FILE: ToolHints = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

export const exportTestTool = defineTool({
  name: 'browser_export_test',
  title: 'Export as Playwright test',
  description:
    "The session's actions as a @playwright/test spec (role/label locators, expect for what was waited for and read, secrets from the environment); also a session file. Replay it with browser_replay.",
  profile: 'files',
  input: z
    .object({
      ...sessionAddress,
      language: z.enum(['ts', 'js']).optional().describe('Default ts.'),
      fromStep: Step.optional(),
      toStep: Step.optional(),
      assertions: z
        .boolean()
        .optional()
        .describe('false: no expect from reads (waits keep theirs). Default true.'),
    })
    .strict(),
  output: z.object({
    fileId: z.string(),
    name: z.string(),
    fromStep: z.number(),
    toStep: z.number(),
    steps: z.number(),
    code: z.string(),
    truncated: z.boolean(),
    env: z.array(z.string()),
    notUnique: z.array(z.number()),
    assertions: z.number(),
    assertionSteps: z.array(z.number()),
    withheld: z.array(z.number()),
  }),
  hints: WRITES_FILE,
  async handler(args, { mesh, call }) {
    const result = await mesh.run(
      args.sessionId,
      'export_test',
      (ctx) =>
        exportTest(ctx, {
          language: args.language,
          fromStep: args.fromStep,
          toStep: args.toStep,
          assertions: args.assertions,
        }),
      call,
    );
    // The spec as code, not as a JSON string: one header line, then the file's text.
    const checks = `${result.assertions} assertion${result.assertions === 1 ? '' : 's'}${result.assertionSteps.length > 0 ? ` from steps ${result.assertionSteps.join(', ')}` : ''}`;
    const head = `// ${result.name} (fileId ${result.fileId}), steps ${result.fromStep}-${result.toStep}, ${checks}${result.truncated ? ', cut: read the whole file with browser_files' : ''}`;
    const out: ToolOutput<typeof result> = { structured: result, text: `${head}\n${result.code}` };
    return out;
  },
});
