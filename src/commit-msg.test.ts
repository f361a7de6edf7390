// The commit message rules (scripts/commit-msg.sh): the hook refuses a subject over 72 characters,
// one that ends with a period, and a message without a body, each with a one-line reason; CI's
// check (scripts/check-commit-messages.sh) refuses the same of every commit new on the branch; and
// npm install's "prepare" installs the hook only at the top of a git work tree of its own.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const script = (name: string) => path.join(ROOT, 'scripts', name);
const scratch = mkdtempSync(path.join(tmpdir(), 'commit-msg-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Git with no user or system configuration of the machine, and an author for commits. */
const GIT_ENV = {
  ...process.env,
  HOME: scratch,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: path.join(scratch, 'no-global-config'),
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

function run(command: string, args: string[], cwd = scratch, input?: string) {
  const result = spawnSync(command, args, { cwd, env: GIT_ENV, encoding: 'utf8', input });
  return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
}

let messages = 0;
/** The hook's check of one message, as git hands it over: in a file. */
function check(message: string) {
  messages += 1;
  const file = path.join(scratch, `COMMIT_EDITMSG_${messages}`);
  writeFileSync(file, message);
  return run('bash', [script('commit-msg.sh'), file]);
}

const WHY = '\n\nThe page said nothing when the bank refused; now it says why.\n';

describe('the commit-msg hook', () => {
  it('takes a subject of 72 characters or fewer, a blank line and a body', () => {
    expect(check(`Say why a refused card was refused${WHY}`)).toEqual({ status: 0, output: '' });
    expect(check(`${'a'.repeat(72)}${WHY}`).status).toBe(0);
  });

  it('counts characters, not bytes: 72 naira signs are 72', () => {
    expect(check(`${'₦'.repeat(72)}${WHY}`).status).toBe(0);
    expect(check(`${'₦'.repeat(73)}${WHY}`).status).toBe(1);
  });

  it('refuses a subject over 72 characters, with one line saying so', () => {
    const refused = check(`${'a'.repeat(73)}${WHY}`);
    expect(refused.status).toBe(1);
    expect(refused.output).toBe(
      'commit-msg: the subject has 73 characters; 72 at most, so that git log --oneline reads whole',
    );
  });

  it('refuses a subject that ends with a period', () => {
    expect(check(`Say why a refused card was refused.${WHY}`)).toEqual({
      status: 1,
      output: 'commit-msg: the subject ends with a period: a subject is a title',
    });
  });

  it('refuses a message without a body: a subject alone, or a blank line and nothing', () => {
    const noBody = {
      status: 1,
      output:
        'commit-msg: there is no body: after the subject, a blank line, then why the change is made',
    };
    expect(check('Say why a refused card was refused\n')).toEqual(noBody);
    expect(check('Say why a refused card was refused\n\n   \n')).toEqual(noBody);
  });

  it('refuses a subject that runs on to a second line', () => {
    expect(check(`Say why a refused card\nwas refused${WHY}`)).toEqual({
      status: 1,
      output:
        'commit-msg: the subject runs on to a second line: put a blank line after it, then the body',
    });
  });

  it('refuses an empty message', () => {
    expect(check('\n# Please enter the commit message for your changes.\n')).toEqual({
      status: 1,
      output: 'commit-msg: the message is empty',
    });
  });

  it('reads the message as git keeps it: no comment lines, nothing below the scissors', () => {
    const template = [
      'Say why a refused card was refused',
      '',
      '# Please enter the commit message for your changes. Lines starting',
      "# with '#' will be ignored, and an empty message aborts the commit.",
    ].join('\n');
    expect(check(`${template}\n`).status).toBe(1);
    expect(check(`${template}\nThe page said nothing when the bank refused.\n`).status).toBe(0);
    const verbose = `${template}\n# ------------------------ >8 ------------------------\ndiff --git a/x b/x\n`;
    expect(check(verbose).output).toMatch(/there is no body/);
    expect(check(`\n\n# a comment first\n${'a'.repeat(72)}\r\n\r\nWhy.\r\n`).status).toBe(0);
  });

  it('reads standard input for -', () => {
    expect(run('bash', [script('commit-msg.sh'), '-'], scratch, 'No body here\n').status).toBe(1);
  });
});

describe("CI's check of the commits new on the branch", () => {
  const repo = path.join(scratch, 'repo');
  const git = (...args: string[]) => run('git', args, repo);
  const commit = (message: string) => {
    git('commit', '-q', '--allow-empty', '--no-verify', '-m', message);
    return git('rev-parse', 'HEAD').output;
  };
  const checkFrom = (from: string, cwd = repo) =>
    run('bash', [script('check-commit-messages.sh'), from], cwd);
  let start = '';
  let bad = '';
  beforeAll(() => {
    mkdirSync(repo);
    git('init', '-q', '-b', 'main');
    start = commit('Start');
    commit(`Refuse refunds above what remains${WHY}`);
    bad = commit('Fix stuff.');
  });

  it('names each commit after the starting one that breaks a rule, and fails', () => {
    const result = checkFrom(start);
    expect(result.status).toBe(1);
    expect(result.output).toContain(
      `${bad.slice(0, 7)} "Fix stuff.": the subject ends with a period: a subject is a title`,
    );
    expect(result.output).toContain('1 of 2 break the rules');
  });

  it('passes what follows the rules, and leaves the commits before the start alone', () => {
    expect(checkFrom(bad)).toEqual({
      status: 0,
      output: `commit messages: 0 since ${bad.slice(0, 7)}, each a subject and a story`,
    });
  });

  it('says so, and fails, where the starting commit is not in the history', () => {
    const result = checkFrom('0'.repeat(40));
    expect(result.status).toBe(1);
    expect(result.output).toMatch(/is not in this repository's history/);
  });

  it('passes, saying so, where there is no git history at all', () => {
    const copy = path.join(scratch, 'copy');
    mkdirSync(copy);
    expect(checkFrom(start, copy)).toEqual({
      status: 0,
      output: 'commit messages: not checked, this copy has no git history',
    });
  });
});

describe('a clone with the hook installed', () => {
  const clone = path.join(scratch, 'hooked');
  const git = (...args: string[]) => run('git', args, clone);
  beforeAll(() => {
    mkdirSync(path.join(clone, 'scripts'), { recursive: true });
    mkdirSync(path.join(clone, '.githooks'));
    for (const file of ['.githooks/commit-msg', 'scripts/commit-msg.sh']) {
      copyFileSync(path.join(ROOT, file), path.join(clone, file));
    }
    git('init', '-q', '-b', 'main');
    run('sh', [script('install-git-hooks.sh')], clone);
  });
  const head = () => git('log', '--format=%s').output;

  it('refuses a commit whose message breaks a rule, with one line, and makes no commit', () => {
    expect(git('commit', '--allow-empty', '-q', '-m', 'Fix stuff.')).toEqual({
      status: 1,
      output: 'commit-msg: the subject ends with a period: a subject is a title',
    });
    expect(git('rev-parse', '--verify', '-q', 'HEAD').status).not.toBe(0);
  });

  it('makes the commit whose message holds to the rules', () => {
    expect(
      git('commit', '--allow-empty', '-q', '-m', `Refuse refunds above what remains${WHY}`),
    ).toEqual({ status: 0, output: '' });
    expect(head()).toBe('Refuse refunds above what remains');
  });

  it("lets a merge through with git's own message", () => {
    git('checkout', '-q', '-b', 'side');
    git('commit', '--allow-empty', '-q', '-m', `Show the refund's limit${WHY}`);
    git('checkout', '-q', 'main');
    expect(git('merge', '--no-ff', '--no-edit', '-q', 'side').status).toBe(0);
    expect(head().split('\n')[0]).toBe("Merge branch 'side'");
  });

  it('lets a fixup! commit through: autosquash folds it away before it lands', () => {
    expect(
      git('commit', '--allow-empty', '-q', '-m', 'fixup! Refuse refunds above what remains').status,
    ).toBe(0);
  });
});

describe('npm install\'s "prepare"', () => {
  const hooksPath = (cwd: string) => run('git', ['config', '--get', 'core.hooksPath'], cwd).output;

  it('sets core.hooksPath to .githooks at the top of a git work tree', () => {
    const clone = path.join(scratch, 'fresh-clone');
    mkdirSync(clone);
    run('git', ['init', '-q'], clone);
    expect(run('sh', [script('install-git-hooks.sh')], clone)).toEqual({ status: 0, output: '' });
    expect(hooksPath(clone)).toBe('.githooks');
  });

  it('does nothing, and does not fail, without git history or inside another repository', () => {
    const plain = path.join(scratch, 'plain');
    mkdirSync(plain);
    expect(run('sh', [script('install-git-hooks.sh')], plain)).toEqual({ status: 0, output: '' });

    const outer = path.join(scratch, 'outer');
    const inner = path.join(outer, 'node_modules', 'oya-consent');
    mkdirSync(inner, { recursive: true });
    run('git', ['init', '-q'], outer);
    expect(run('sh', [script('install-git-hooks.sh')], inner)).toEqual({ status: 0, output: '' });
    expect(hooksPath(outer)).toBe('');
  });
});
