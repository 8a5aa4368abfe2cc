// the one masking rule for URLs Argus prints; it lives in @argus/protocol so providers share it
export { withoutPassword } from '@argus/protocol/url-display';
