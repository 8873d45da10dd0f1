import { router } from '../../trpc.ts';
import { login } from './login.ts';
import { logout } from './logout.ts';
import { me } from './me.ts';
import { refresh } from './refresh.ts';
import { register } from './register.ts';

export const authRouter = router({ register, login, refresh, logout, me });
