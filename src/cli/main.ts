import { CommanderError } from 'commander';
import { OperatorError } from '../operator.js';
import { CliError, EXIT } from './client.js';
import { buildProgram } from './program.js';

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander has printed the usage error (or the help or version asked for).
    process.exitCode = error.exitCode === 0 ? 0 : EXIT.badInput;
  } else if (error instanceof CliError) {
    process.stderr.write(`error: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else if (error instanceof OperatorError) {
    process.stderr.write(`error: ${error.message}\n`);
    process.exitCode = EXIT.badInput;
  } else {
    process.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = EXIT.failure;
  }
}
