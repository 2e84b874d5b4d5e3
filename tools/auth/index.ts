import getCaller from './get_caller.js';
import postAuthDevicePoll from './post_auth_device_poll.js';
import postAuthDeviceStart from './post_auth_device_start.js';

export const authOperations = [getCaller, postAuthDeviceStart, postAuthDevicePoll];
