/** Reading the per-scenario `checks.json` files the conformance CLI writes with `-o`. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface Check {
  id: string;
  name: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  errorMessage?: string;
}

export interface ScenarioResult {
  scenario: string;
  checks: Check[];
}

/** `server-<scenario>-<ISO time with : and . as ->`: the directory name the CLI gives a result. */
const RESULT_DIR = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

export async function readResults(outDir: string): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const name of (await readdir(outDir)).sort()) {
    const scenario = RESULT_DIR.exec(name)?.[1];
    if (!scenario) continue;
    const checks = JSON.parse(await readFile(join(outDir, name, 'checks.json'), 'utf8')) as Check[];
    results.push({ scenario, checks });
  }
  return results;
}
