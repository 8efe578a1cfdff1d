//! nginx on a loopback port, serving a temporary directory: the real server the HTTP tests
//! stream from. `/norange/` ignores Range (max_ranges 0); `/private/` wants a bearer token.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const TOKEN: &str = "Bearer t0ken";

pub struct Nginx {
    child: Child,
    pub addr: SocketAddr,
    /// What it serves: files put here are at `url(name)`.
    pub root: PathBuf,
    dir: PathBuf,
}

fn binary() -> Option<PathBuf> {
    ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

impl Nginx {
    /// Starts nginx in `dir` (wiped). Panics if nginx is missing: `.ci/deps` installs it.
    pub fn start(dir: &Path) -> Nginx {
        let nginx = binary().expect("nginx is not installed (.ci/deps installs nginx-light)");
        let _ = std::fs::remove_dir_all(dir);
        let root = dir.join("www");
        for sub in ["www/norange", "www/private", "tmp"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let d = dir.display();
        let conf = format!(
            "daemon off;\nmaster_process off;\nworker_processes 1;\npid {d}/nginx.pid;\n\
             error_log {d}/error.log warn;\nevents {{ worker_connections 512; }}\n\
             http {{\n  access_log off;\n  client_body_temp_path {d}/tmp;\n\
             proxy_temp_path {d}/tmp;\n  fastcgi_temp_path {d}/tmp;\n\
             keepalive_requests 100000;\n  default_type application/octet-stream;\n\
             server {{\n    listen {addr};\n    root {d}/www;\n\
             location /norange/ {{ max_ranges 0; }}\n\
             location /private/ {{ if ($http_authorization != \"{TOKEN}\") {{ return 401; }} }}\n\
             }}\n}}\n"
        );
        std::fs::write(dir.join("nginx.conf"), conf).unwrap();
        let child = Command::new(nginx)
            .arg("-p")
            .arg(dir)
            .arg("-e")
            .arg(dir.join("error.log"))
            .arg("-c")
            .arg(dir.join("nginx.conf"))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start nginx");
        let mut server = Nginx {
            child,
            addr,
            root,
            dir: dir.to_path_buf(),
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(addr).is_err() {
            if let Ok(Some(status)) = server.child.try_wait() {
                let log = std::fs::read_to_string(server.dir.join("error.log")).unwrap_or_default();
                panic!("nginx exited ({status}): {log}");
            }
            assert!(Instant::now() < deadline, "nginx did not listen on {addr}");
            std::thread::sleep(Duration::from_millis(20));
        }
        server
    }

    pub fn url(&self, name: &str) -> String {
        format!("http://{}/{}", self.addr, name)
    }

    /// Puts `bytes` at `name` the way a deploy replaces a file: written aside, renamed over,
    /// with a modification time of its own (nginx's ETag is mtime and length).
    pub fn publish(&self, name: &str, bytes: &[u8], mtime_secs: u64) {
        let path = self.root.join(name);
        let tmp = path.with_extension("uploading");
        std::fs::write(&tmp, bytes).unwrap();
        let f = std::fs::File::options().write(true).open(&tmp).unwrap();
        f.set_modified(std::time::UNIX_EPOCH + Duration::from_secs(mtime_secs))
            .unwrap();
        drop(f);
        std::fs::rename(&tmp, &path).unwrap();
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
