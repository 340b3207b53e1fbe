// Projects (/api/projects): list, create, rename, delete.
import type { ProjectJson } from "@/lib/contract";
import { json, send, withBody } from "@/lib/client/api/http";

const enc = encodeURIComponent;

export async function listProjects(): Promise<ProjectJson[]> {
  return (await json<{ projects: ProjectJson[] }>("/api/projects")).projects;
}

export async function createProject(name: string): Promise<ProjectJson> {
  return (await json<{ project: ProjectJson }>("/api/projects", withBody("POST", { name }))).project;
}

export async function renameProject(id: string, name: string): Promise<ProjectJson> {
  return (await json<{ project: ProjectJson }>(`/api/projects/${enc(id)}`, withBody("PATCH", { name }))).project;
}

export async function deleteProject(id: string): Promise<void> {
  await send(`/api/projects/${enc(id)}`, { method: "DELETE" });
}
