// Account administration from the shell:
//   npm run admin -- create <username> <password> [--email e] [--first f] [--last l] [--admin]
//   npm run admin -- approve <username>
//   npm run admin -- promote <username>
//   npm run admin -- reset-password <username> <password>
//   npm run admin -- reset-2fa <username>
import { loadEnvOrExit } from '#server/env.ts';
import { createAccount, resetTwoFactor, setFlags, setPassword } from '#server/accounts/operator.ts';
import { passwordProblem } from '#server/passwords.ts';

const [command = '', name = '', ...rest] = process.argv.slice(2);
const flag = (n: string) => {
  const i = rest.indexOf(`--${n}`);
  return i >= 0 ? rest[i + 1] : undefined;
};
const usage = () => {
  console.error('usage: npm run admin -- create <username> <password> [--admin] [--email e] [--first f] [--last l]');
  console.error('       npm run admin -- approve|promote <username>');
  console.error('       npm run admin -- reset-password <username> <password>');
  console.error('       npm run admin -- reset-2fa <username>');
  process.exit(2);
};

loadEnvOrExit();

if (!command || !name) usage();
try {
  switch (command) {
    case 'create': {
      const password = rest[0] ?? '';
      const problem = password.startsWith('--') ? 'Password must be at least 6 characters' : passwordProblem(password);
      if (problem) {
        console.error(problem);
        process.exit(2);
      }
      await createAccount({ username: name, password, email: flag('email'), firstName: flag('first'), lastName: flag('last'), isAdmin: rest.includes('--admin') });
      console.log(`Created approved ${rest.includes('--admin') ? 'admin' : 'user'} "${name}"`);
      break;
    }
    case 'approve':
      setFlags(name, { isApproved: true });
      console.log(`Approved "${name}"`);
      break;
    case 'promote':
      setFlags(name, { isApproved: true, isAdmin: true });
      console.log(`"${name}" is now an approved admin`);
      break;
    case 'reset-password': {
      const password = rest[0] ?? '';
      const problem = passwordProblem(password);
      if (problem) {
        console.error(problem);
        process.exit(2);
      }
      const ended = await setPassword(name, password);
      console.log(`Password of "${name}" reset; ${ended} signed-in session${ended === 1 ? '' : 's'} ended`);
      break;
    }
    case 'reset-2fa':
      resetTwoFactor(name);
      console.log(`Two-factor sign-in of "${name}" is off and its sessions ended; it signs in with its password and sets it up again (written to the audit log)`);
      break;
    default:
      usage();
  }
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
