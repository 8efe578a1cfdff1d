using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using Relief.Native;

namespace Relief
{
    /// <summary>How relief fetches a world pack or planet blob by URL
    /// (<see cref="World.OpenUrl"/>, <see cref="Planet.OpenUrl"/>). A new instance holds
    /// relief's defaults: 10 s per request, 2 retries, the user's cache directory with a
    /// 2 GiB budget.</summary>
    public sealed class HttpOptions
    {
        /// <summary>Milliseconds one request may take, connecting to last byte.</summary>
        public uint TimeoutMs;
        /// <summary>Further tries of a request that failed transiently (no answer, reset,
        /// truncated body, 5xx, 429); the runtime retries failed loads on top.</summary>
        public uint Retries;
        /// <summary>The disk cache's directory (on a device, Application.persistentDataPath
        /// or temporaryCachePath); null: the user's cache directory.</summary>
        public string CacheDirectory;
        /// <summary>The most the cache may hold, bytes; 0: no disk cache.</summary>
        public ulong CacheBudgetBytes;
        /// <summary>Sent with every request, such as "Authorization: Bearer ...". A redirect
        /// to another host drops them unless <see cref="HeadersToOtherHosts"/> is set.</summary>
        public readonly List<string> Headers = new List<string>();
        /// <summary>Send <see cref="Headers"/> on after a redirect to another host too (a CDN
        /// that wants the same token); off by default.</summary>
        public bool HeadersToOtherHosts;

        public HttpOptions()
        {
            Abi.Require();
            var d = new relief_http_options();
            d.struct_size = (uint)Marshal.SizeOf(typeof(relief_http_options));
            ReliefException.Check(NativeMethods.relief_http_options_default(ref d));
            TimeoutMs = d.timeout_ms;
            Retries = d.retries;
            CacheBudgetBytes = d.cache_budget_bytes;
        }

        /// <summary>The options as the C struct, with its strings in native memory until
        /// disposed (after the open call returns: relief copies them).</summary>
        internal sealed class Pinned : IDisposable
        {
            public relief_http_options Options;
            readonly List<IntPtr> owned = new List<IntPtr>();

            public Pinned(HttpOptions o)
            {
                if (o == null)
                    o = new HttpOptions();
                Options.struct_size = (uint)Marshal.SizeOf(typeof(relief_http_options));
                Options.timeout_ms = o.TimeoutMs;
                Options.retries = o.Retries;
                Options.cache_budget_bytes = o.CacheBudgetBytes;
                Options.headers_to_other_hosts = (byte)(o.HeadersToOtherHosts ? 1 : 0);
                if (o.CacheDirectory != null)
                    Options.cache_dir = Copy(o.CacheDirectory);
                if (o.Headers.Count > 0)
                {
                    IntPtr array = Marshal.AllocHGlobal(IntPtr.Size * o.Headers.Count);
                    owned.Add(array);
                    for (int i = 0; i < o.Headers.Count; i++)
                        Marshal.WriteIntPtr(array, i * IntPtr.Size, Copy(o.Headers[i]));
                    Options.headers = array;
                    Options.header_count = (UIntPtr)o.Headers.Count;
                }
            }

            IntPtr Copy(string text)
            {
                byte[] bytes = ReliefException.CString(text);
                IntPtr p = Marshal.AllocHGlobal(bytes.Length);
                Marshal.Copy(bytes, 0, p, bytes.Length);
                owned.Add(p);
                return p;
            }

            public void Dispose()
            {
                foreach (IntPtr p in owned)
                    Marshal.FreeHGlobal(p);
                owned.Clear();
            }
        }
    }
}
