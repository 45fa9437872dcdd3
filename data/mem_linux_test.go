package data

import (
	"os"
	"path/filepath"
	"testing"
)

// A container's memory limit bounds what a data set may take: a file that
// fits the host's MemAvailable but not the cgroup's limit was read until
// the kernel killed the process, where the reader refuses it up front
// saying how much it needs.
func TestAvailableMemoryCgroup(t *testing.T) {
	const gib = 1 << 30
	meminfo := "MemTotal:       25165824 kB\nMemAvailable:   20971520 kB\n" // 20 GiB
	cases := []struct {
		name  string
		files map[string]string
		want  int64
	}{
		{"no cgroup file", map[string]string{}, 20 * gib},
		{"v2, limit in the named cgroup", map[string]string{
			"proc/self/cgroup":                   "0::/job/7\n",
			"sys/fs/cgroup/job/7/memory.max":     "4294967296\n",
			"sys/fs/cgroup/job/7/memory.current": "1073741824\n",
			"sys/fs/cgroup/job/7/memory.stat":    "anon 536870912\ninactive_file 268435456\n",
		}, 4*gib - (gib - gib/4)},
		{"v2, no limit", map[string]string{
			"proc/self/cgroup":                   "0::/job/7\n",
			"sys/fs/cgroup/job/7/memory.max":     "max\n",
			"sys/fs/cgroup/job/7/memory.current": "1073741824\n",
		}, 20 * gib},
		{"v2 in a container: the mount's root", map[string]string{
			"proc/self/cgroup":             "0::/\n",
			"sys/fs/cgroup/memory.max":     "2147483648\n",
			"sys/fs/cgroup/memory.current": "536870912\n",
		}, 2*gib - gib/2},
		{"v2, the path not mounted: the mount's root", map[string]string{
			"proc/self/cgroup":             "0::/kubepods/pod1/c2\n",
			"sys/fs/cgroup/memory.max":     "2147483648\n",
			"sys/fs/cgroup/memory.current": "0\n",
		}, 2 * gib},
		{"v1 beside others", map[string]string{
			"proc/self/cgroup": "5:cpu,cpuacct:/x\n4:memory:/docker/abc\n0::/\n",
			"sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": "3221225472\n",
			"sys/fs/cgroup/memory/docker/abc/memory.usage_in_bytes": "1073741824\n",
			"sys/fs/cgroup/memory/docker/abc/memory.stat":           "cache 1\ntotal_inactive_file 1073741824\n",
		}, 3 * gib},
		{"v1 unlimited (the int64 maximum, page-rounded)", map[string]string{
			"proc/self/cgroup":                           "4:memory:/\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n",
			"sys/fs/cgroup/memory/memory.usage_in_bytes": "5485666304\n",
		}, 20 * gib},
		{"a limit above MemAvailable", map[string]string{
			"proc/self/cgroup":             "0::/\n",
			"sys/fs/cgroup/memory.max":     "68719476736\n",
			"sys/fs/cgroup/memory.current": "0\n",
		}, 20 * gib},
		// Slurm's layout: the job's limit on job_1, the process in a
		// task below it whose own memory.max is "max".
		{"v2, the limit on an ancestor", map[string]string{
			"proc/self/cgroup": "0::/system.slice/slurmstepd.scope/job_1/step_batch/user/task_0\n",
			"sys/fs/cgroup/system.slice/slurmstepd.scope/job_1/memory.max":                            "4294967296\n",
			"sys/fs/cgroup/system.slice/slurmstepd.scope/job_1/memory.current":                        "1073741824\n",
			"sys/fs/cgroup/system.slice/slurmstepd.scope/job_1/step_batch/memory.max":                 "max\n",
			"sys/fs/cgroup/system.slice/slurmstepd.scope/job_1/step_batch/memory.current":             "536870912\n",
			"sys/fs/cgroup/system.slice/slurmstepd.scope/job_1/step_batch/user/task_0/memory.max":     "max\n",
			"sys/fs/cgroup/system.slice/slurmstepd.scope/job_1/step_batch/user/task_0/memory.current": "536870912\n",
		}, 3 * gib},
		{"v2, an ancestor leaves less than the process's own limit", map[string]string{
			"proc/self/cgroup":                   "0::/job/7\n",
			"sys/fs/cgroup/job/memory.max":       "2147483648\n",
			"sys/fs/cgroup/job/memory.current":   "1610612736\n",
			"sys/fs/cgroup/job/7/memory.max":     "4294967296\n",
			"sys/fs/cgroup/job/7/memory.current": "1073741824\n",
		}, gib / 2},
		{"v1, the limit on an ancestor", map[string]string{
			"proc/self/cgroup": "4:memory:/batch/job9/task\n",
			"sys/fs/cgroup/memory/batch/job9/memory.limit_in_bytes":      "2147483648\n",
			"sys/fs/cgroup/memory/batch/job9/memory.usage_in_bytes":      "1073741824\n",
			"sys/fs/cgroup/memory/batch/job9/task/memory.limit_in_bytes": "9223372036854771712\n",
			"sys/fs/cgroup/memory/batch/job9/task/memory.usage_in_bytes": "1073741824\n",
		}, gib},
		{"hybrid: no v2 memory files, the v1 hierarchy's limit", map[string]string{
			"proc/self/cgroup": "0::/user.slice\n4:memory:/job\n",
			"sys/fs/cgroup/memory/job/memory.limit_in_bytes": "2147483648\n",
			"sys/fs/cgroup/memory/job/memory.usage_in_bytes": "0\n",
		}, 2 * gib},
		{"usage at the limit", map[string]string{
			"proc/self/cgroup":             "0::/\n",
			"sys/fs/cgroup/memory.max":     "1073741824\n",
			"sys/fs/cgroup/memory.current": "1073745920\n",
		}, 1},
	}
	for _, c := range cases {
		root := t.TempDir()
		c.files["proc/meminfo"] = meminfo
		for name, text := range c.files {
			path := filepath.Join(root, name)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if got := availableMemoryIn(root); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}
