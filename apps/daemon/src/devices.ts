/** A small device table for `argus emulate <device>`: CSS viewport, DPR, mobile, touch, UA. */
export interface Device {
  name: string;
  width: number;
  height: number;
  scale: number;
  mobile: boolean;
  touch: boolean;
  userAgent: string;
}

export const DEVICES: readonly Device[] = [
  {
    name: 'iPhone 15',
    width: 393,
    height: 852,
    scale: 3,
    mobile: true,
    touch: true,
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  },
  {
    name: 'Pixel 8',
    width: 412,
    height: 915,
    scale: 2.625,
    mobile: true,
    touch: true,
    userAgent:
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  },
  {
    name: 'iPad',
    width: 820,
    height: 1180,
    scale: 2,
    mobile: true,
    touch: true,
    userAgent:
      'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  },
  {
    name: 'Desktop 1080p',
    width: 1920,
    height: 1080,
    scale: 1,
    mobile: false,
    touch: false,
    userAgent: '',
  },
];

const squash = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Case-, space- and dash-insensitive lookup: "iphone-15", "iPhone15" and "iPhone 15" all match. */
export function findDevice(name: string): Device | undefined {
  const key = squash(name);
  return DEVICES.find((device) => squash(device.name) === key);
}
