/** Imported first by the entry points: silences the AWS SDK's Node-version notice (toolchain.md). */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
