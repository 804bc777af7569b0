import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect, scriptedModel, type TestSession, textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { git, type RepoFixture, repoFixture } from './repo-kit.js';

describe.each(['legacy', 'modern'] as const)('git_generate_commit_message, %s era', (era) => {
  let fx: RepoFixture;
  let session: TestSession | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
    await fx.cleanup();
  });

  async function stage() {
    await writeFile(join(fx.repo, 'src/main.ts'), 'export const a = 42;\n');
    git(fx.repo, 'add', 'src/main.ts');
  }

  it('lets the model read the staged diff, then commits the message the user edited', async () => {
    fx = await repoFixture();
    await stage();
    const model = scriptedModel({
      toolCalls: [{ name: 'staged_diff', input: { path: 'src/main.ts' } }],
      answer: () => '```\nSet a to 42\n\nThe answer, at last.\n```',
    });
    const asked: string[] = [];
    session = await connect(fx.app, {
      era,
      sampling: model.respond,
      elicitation: (params) => {
        asked.push(params.message);
        return { action: 'accept', content: { message: 'Set a to 42 (edited)' } };
      },
    });
    const result = await session.callTool('git_generate_commit_message', { hint: 'the answer' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ committed: true, message: 'Set a to 42 (edited)' });
    expect(git(fx.repo, 'log', '-1', '--format=%s')).toBe('Set a to 42 (edited)\n');
    expect(asked[0]).toContain('Set a to 42\n\nThe answer, at last.');
    expect(JSON.stringify(model.requests[1]?.messages)).toContain('export const a = 42');
  });

  it('commits nothing when the user declines', async () => {
    fx = await repoFixture();
    await stage();
    const model = scriptedModel({ answer: () => 'Change a' });
    session = await connect(fx.app, {
      era,
      sampling: model.respond,
      elicitation: () => ({ action: 'decline' }),
    });
    const before = git(fx.repo, 'rev-parse', 'HEAD');
    const result = await session.callTool('git_generate_commit_message', {});
    expect(result.structuredContent).toMatchObject({ committed: false, message: 'Change a' });
    expect(git(fx.repo, 'rev-parse', 'HEAD')).toBe(before);
  });

  it('without elicitation, returns the message unless confirm is true', async () => {
    fx = await repoFixture();
    await stage();
    const model = scriptedModel({ answer: () => 'Change a' });
    session = await connect(fx.app, { era, sampling: model.respond });
    const before = git(fx.repo, 'rev-parse', 'HEAD');
    const proposed = await session.callTool('git_generate_commit_message', {});
    expect(textOf(proposed)).toContain('confirm: true');
    expect(git(fx.repo, 'rev-parse', 'HEAD')).toBe(before);
    const done = await session.callTool('git_generate_commit_message', { confirm: true });
    expect(done.structuredContent).toMatchObject({ committed: true });
    expect(git(fx.repo, 'log', '-1', '--format=%s')).toBe('Change a\n');
  });

  it('says what to do when nothing is staged or the client cannot sample', async () => {
    fx = await repoFixture();
    session = await connect(fx.app, { era });
    expect(textOf(await session.callTool('git_generate_commit_message', {}))).toContain('Nothing is staged');
    await stage();
    const noModel = await session.callTool('git_generate_commit_message', {});
    expect(noModel.isError).toBe(true);
    expect(textOf(noModel)).toContain('cannot sample');
  });
});
