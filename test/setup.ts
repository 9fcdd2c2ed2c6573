// ink renders no intermediate frames under CI=true (is-in-ci); our CI sets it. Tests need frames.
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;
// Plain-text assertions: no colour codes in frames unless a test asks for them.
process.env.FORCE_COLOR = '0';
