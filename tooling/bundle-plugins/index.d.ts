import type { Options } from 'tsup';

export type BundlePlugin = NonNullable<Options['esbuildPlugins']>[number];

export declare const criWithoutLocalProtocol: BundlePlugin;
export declare const zodEnglishOnly: BundlePlugin;
export declare const mcpServerWithoutDefaultAjv: BundlePlugin;

export type CodeCacheBundle = Required<
  Pick<Options, 'format' | 'outExtension' | 'splitting' | 'shims' | 'esbuildOptions'>
>;
export declare const codeCacheBundle: CodeCacheBundle;
