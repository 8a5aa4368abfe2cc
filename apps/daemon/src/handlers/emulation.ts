import { ArgusError, type Handlers } from '@argus/protocol';
import { DEVICES, findDevice } from '../devices.js';
import type { Services } from '../services.js';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;

export function emulationHandlers(services: Services): Handlers['emulation'] {
  const { manager } = services;
  const defaultUserAgent = async () => (await manager.current?.version().catch(() => undefined))?.userAgent ?? '';
  return {
    viewport: (input) =>
      manager.onTab(input.tab, async (page) => {
        const [width, height] = input.size.split('x').map(Number) as [number, number];
        if (width < 1 || height < 1 || width > 10_000 || height > 10_000) {
          throw new ArgusError(
            'invalid_input',
            `Viewport ${input.size} is out of range: each side must be 1-10000 CSS pixels.`,
          );
        }
        const metrics = { width, height, deviceScaleFactor: input.scale, mobile: false };
        await page.session.send('Emulation.setDeviceMetricsOverride', metrics);
        manager.tabState(page).metricsOverride = metrics;
        return { width, height, scale: input.scale };
      }),
    emulate: (input) =>
      manager.onTab(input.tab, async (page) => {
        const session = page.session;
        const applied: string[] = [];
        const asked =
          [input.device, input.media, input.geo, input.offline, input.cpu].some((value) => value !== undefined) ||
          input.reset;
        if (!asked)
          throw new ArgusError(
            'invalid_input',
            `Say what to emulate: a device (${DEVICES.map((d) => d.name).join(', ')}), --media, --geo, --offline, --cpu or --reset.`,
          );
        if (input.reset) {
          await Promise.all([
            session.send('Emulation.clearDeviceMetricsOverride'),
            session.send('Emulation.setTouchEmulationEnabled', { enabled: false }),
            session.send('Emulation.setEmulatedMedia', { media: '', features: [] }),
            session.send('Emulation.clearGeolocationOverride'),
            session.send('Emulation.setCPUThrottlingRate', { rate: 1 }),
            session.send('Network.emulateNetworkConditions', {
              offline: false,
              latency: 0,
              downloadThroughput: -1,
              uploadThroughput: -1,
            }),
            defaultUserAgent().then((userAgent) =>
              userAgent ? session.send('Emulation.setUserAgentOverride', { userAgent }) : undefined,
            ),
          ]);
          manager.tabState(page).metricsOverride = null;
          applied.push('reset: viewport, touch, media, geolocation, CPU, network and user agent');
        }
        if (input.device !== undefined) {
          const device = findDevice(input.device);
          if (!device) {
            throw new ArgusError(
              'invalid_input',
              `Unknown device "${input.device}". Known devices: ${DEVICES.map((d) => d.name).join(', ')}. Or set a size with \`argus viewport WxH\`.`,
              {
                details: { devices: DEVICES.map((d) => d.name) },
              },
            );
          }
          const metrics = {
            width: device.width,
            height: device.height,
            deviceScaleFactor: device.scale,
            mobile: device.mobile,
          };
          await session.send('Emulation.setDeviceMetricsOverride', metrics);
          manager.tabState(page).metricsOverride = metrics;
          await session.send(
            'Emulation.setTouchEmulationEnabled',
            device.touch ? { enabled: true, maxTouchPoints: 5 } : { enabled: false },
          );
          const userAgent = device.userAgent || (await defaultUserAgent());
          if (userAgent) await session.send('Emulation.setUserAgentOverride', { userAgent });
          applied.push(
            `device ${device.name}: ${device.width}x${device.height} @${device.scale}x${device.mobile ? ', mobile' : ''}${device.touch ? ', touch' : ''}`,
          );
        }
        if (input.media !== undefined) {
          await session.send('Emulation.setEmulatedMedia', {
            features: [{ name: 'prefers-color-scheme', value: input.media }],
          });
          applied.push(`prefers-color-scheme: ${input.media}`);
        }
        if (input.geo !== undefined) {
          const [latitude, longitude] = input.geo.split(',').map((part) => Number(part.trim())) as [number, number];
          if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180)
            throw new ArgusError(
              'invalid_input',
              `--geo ${input.geo} is out of range (latitude -90..90, longitude -180..180).`,
            );
          const origin = /^https?:/.test(page.url) ? new URL(page.url).origin : undefined;
          await session.send('Browser.grantPermissions', {
            permissions: ['geolocation'],
            ...(origin ? { origin } : {}),
          });
          await session.send('Emulation.setGeolocationOverride', { latitude, longitude, accuracy: 10 });
          applied.push(`geolocation ${latitude},${longitude}`);
        }
        if (input.offline !== undefined) {
          await session.send('Network.emulateNetworkConditions', {
            offline: input.offline,
            latency: 0,
            downloadThroughput: -1,
            uploadThroughput: -1,
          });
          applied.push(input.offline ? 'offline' : 'online');
        }
        if (input.cpu !== undefined) {
          await session.send('Emulation.setCPUThrottlingRate', { rate: input.cpu });
          applied.push(`CPU ${input.cpu}x slower`);
        }
        return { applied };
      }),
    useragent: (input) =>
      manager.onTab(input.tab, async (page) => {
        await page.session.send('Emulation.setUserAgentOverride', { userAgent: input.userAgent });
        return { userAgent: input.userAgent };
      }),
    header: (input) =>
      manager.onTab(input.tab, async (page) => {
        if (input.clear === (input.header !== undefined))
          throw new ArgusError('invalid_input', 'Give one header ("Name: value") or --clear.');
        const headers = input.clear ? {} : { ...manager.tabState(page).extraHeaders };
        if (input.header !== undefined) {
          const colon = input.header.indexOf(':');
          const name = colon > 0 ? input.header.slice(0, colon).trim() : '';
          const value = colon > 0 ? input.header.slice(colon + 1).trim() : '';
          if (!HEADER_NAME.test(name))
            throw new ArgusError('invalid_input', `"${input.header}" is not "Name: value" with a valid header name.`);
          if (/[\r\n\0]/.test(value))
            throw new ArgusError('invalid_input', 'A header value cannot contain line breaks.');
          for (const key of Object.keys(headers)) if (key.toLowerCase() === name.toLowerCase()) delete headers[key];
          headers[name] = value;
        }
        await page.session.send('Network.setExtraHTTPHeaders', { headers });
        manager.tabState(page).extraHeaders = headers;
        return { headers: Object.keys(headers) };
      }),
  };
}
