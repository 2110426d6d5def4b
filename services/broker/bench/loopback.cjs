/**
 * Preloaded (`node --require`) into Portkey's gateway, which listens on every interface with no
 * option to choose: binds its server to 127.0.0.1 on a free port instead, and tells the parent
 * (IPC) which port it got.
 */
const net = require('node:net');

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const first = args[0];
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    const callback = typeof args[args.length - 1] === 'function' ? args[args.length - 1] : undefined;
    this.once('listening', () => process.send?.({ port: this.address().port }));
    return listen.call(this, { port: 0, host: '127.0.0.1' }, callback);
  }
  if (first && typeof first === 'object' && !Array.isArray(first)) {
    this.once('listening', () => process.send?.({ port: this.address().port }));
    return listen.call(this, { ...first, port: 0, host: '127.0.0.1' }, ...args.slice(1));
  }
  return listen.apply(this, args);
};
