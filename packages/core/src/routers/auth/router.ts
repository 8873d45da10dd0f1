import { router } from '../../trpc.ts';
import { loginProcedure } from './login.ts';
import { logoutProcedure } from './logout.ts';
import { meProcedure } from './me.ts';
import { refreshProcedure } from './refresh.ts';
import { registerProcedure } from './register.ts';

export const authRouter = router({
  login: loginProcedure,
  logout: logoutProcedure,
  me: meProcedure,
  refresh: refreshProcedure,
  register: registerProcedure,
});
