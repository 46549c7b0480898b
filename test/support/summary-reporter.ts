import type { RunnerTask, RunnerTestFile } from 'vitest';
import type { Reporter } from 'vitest/reporters';

/** Ends the run with the plain line CI reads: "N passed, N failed, N skipped". */
export default class SummaryLineReporter implements Reporter {
  onFinished(files: RunnerTestFile[] = []): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const visit = (task: RunnerTask) => {
      if (task.type === 'suite') task.tasks.forEach(visit);
      else if (task.result?.state === 'pass') counts.passed++;
      else if (task.result?.state === 'fail') counts.failed++;
      else counts.skipped++;
    };
    files.forEach(visit);
    process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
