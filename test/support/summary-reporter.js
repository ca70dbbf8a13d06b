/**
 * Ends the run with one plain line, `jest: N passed, N failed, N skipped`, which CI tools read
 * whatever the test runner.
 */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    process.stdout.write(
      `\njest: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped\n`,
    );
  }
}
module.exports = SummaryReporter;
